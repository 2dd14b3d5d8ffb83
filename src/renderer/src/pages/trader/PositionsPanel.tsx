import type { ReactElement } from 'react';
import { useCallback, useEffect, useRef } from 'react';
import { POSITION_SORT_FIELDS, type Position, type PositionSortField } from '@shared/api/positions';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable } from '@renderer/components/table/DataTable';
import { useChannel } from '@renderer/ipc/use-channel';
import { formatInteger } from '@renderer/format/number';
import { formatDay } from '@renderer/format/time';
import type { TraderRef } from '@renderer/stores/navigation';
import { POSITIONS_PAGE, useTraderView } from '@renderer/stores/trader';
import { HISTORY_COLUMNS, OPEN_COLUMNS, ORDER_COLUMNS } from './position-columns';

const positionKey = (p: Position): string => p.id;
const isSortField = (f: string): f is PositionSortField =>
  (POSITION_SORT_FIELDS as readonly string[]).includes(f);

/** The orders of the position picked in the history. */
function PositionOrders({ trader, position }: { trader: TraderRef; position: Position }): ReactElement {
  const orders = useChannel('trader:orders', { ...trader, key: position.key, limit: 500 });
  const select = useTraderView((s) => s.selectPosition);
  const panel = useRef<HTMLElement>(null);
  // The history can be long: bring the orders into view when a position is picked.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [position.key]);
  return (
    <section ref={panel} className="panel" aria-labelledby="orders-title" data-testid="position-orders">
      <header className="panel-header">
        <h2 id="orders-title">
          Orders of {position.pair} {position.isLong ? 'long' : 'short'}{' '}
          <span className="muted num">· opened {formatDay(new Date(position.openBlockTime))}</span>
        </h2>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={ORDER_COLUMNS}
            rows={orders.data?.data ?? []}
            name="trader-position-orders"
            noun="orders"
            testId="orders-export"
          />
          <button type="button" className="button button-small" onClick={() => select(null)}>
            Hide orders
          </button>
        </div>
      </header>
      {orders.error && !orders.data ? (
        <ReadFailed
          title="The orders could not be loaded"
          message={orders.error.message}
          retrying={orders.loading}
          onRetry={orders.reload}
        />
      ) : (
        <DataTable
          rows={orders.data?.data ?? []}
          columns={ORDER_COLUMNS}
          rowKey={(o) => o.id}
          sort={{ column: 'blockTime', direction: 'asc' }}
          loading={orders.loading}
          height={260}
          ariaLabel={`Orders of the ${position.pair} position`}
          testId="orders-table"
          empty={
            <EmptyState title="No orders recorded">
              <p>The service has no orders for this position.</p>
            </EmptyState>
          }
        />
      )}
    </section>
  );
}

/** The trader's open positions: what a copy would follow next. */
export function OpenPositions({ trader }: { trader: TraderRef }): ReactElement {
  const open = useChannel('trader:positions', {
    ...trader,
    status: 'OPEN',
    sortBy: 'openBlockTime',
    sortType: 'desc',
    limit: 100,
  });
  const count = open.data?.meta.total;
  return (
    <section className="panel" aria-labelledby="open-title" data-testid="open-positions">
      <header className="panel-header">
        <h2 id="open-title">Open positions</h2>
        <div className="toolbar-end">
          <span className="panel-count num">{count === undefined ? '' : formatInteger(count)}</span>
          <ExportCsvButton
            columns={OPEN_COLUMNS}
            rows={open.data?.data ?? []}
            name="trader-open-positions"
            noun="positions"
            testId="open-positions-export"
          />
        </div>
      </header>
      {open.error && !open.data ? (
        <ReadFailed
          title="The open positions could not be loaded"
          message={open.error.message}
          retrying={open.loading}
          onRetry={open.reload}
        />
      ) : (
        <DataTable
          rows={open.data?.data ?? []}
          columns={OPEN_COLUMNS}
          rowKey={positionKey}
          sort={{ column: 'openBlockTime', direction: 'desc' }}
          loading={open.loading}
          height={240}
          ariaLabel="Open positions"
          testId="open-positions-table"
          empty={
            <EmptyState title="No open position">
              <p>
                The trader holds nothing on this protocol right now; a copy would start with their next open.
              </p>
            </EmptyState>
          }
        />
      )}
    </section>
  );
}

/** Every position of the trader, newest first: sortable, paged, filtered by status; a row shows its orders. */
export function PositionsHistory({ trader }: { trader: TraderRef }): ReactElement {
  const status = useTraderView((s) => s.status);
  const sort = useTraderView((s) => s.sort);
  const offset = useTraderView((s) => s.offset);
  const selected = useTraderView((s) => s.selectedPosition);
  const view = useTraderView.getState;
  const history = useChannel('trader:positions', {
    ...trader,
    ...(status === 'ALL' ? {} : { status }),
    sortBy: sort.field,
    sortType: sort.direction,
    limit: POSITIONS_PAGE,
    offset,
  });
  const rows = history.data?.data ?? [];
  const total = history.data?.meta.total ?? null;
  const selectedPosition = rows.find((p) => p.key === selected) ?? null;

  const onSort = useCallback(
    (s: { column: string; direction: 'asc' | 'desc' }) => {
      if (isSortField(s.column)) view().setSort({ field: s.column, direction: s.direction });
    },
    [view],
  );
  const onRowOpen = useCallback((p: Position) => view().selectPosition(p.key), [view]);

  const last = total === null ? 0 : Math.min(total, offset + rows.length);
  return (
    <>
      <section className="panel" aria-labelledby="history-title" data-testid="positions-history">
        <header className="panel-header">
          <h2 id="history-title">Positions history</h2>
          <div className="panel-header-tools">
            <div className="segmented segmented-small" role="group" aria-label="Status">
              {(['ALL', 'OPEN', 'CLOSE'] as const).map((s) => (
                <button
                  key={s}
                  type="button"
                  className="segment"
                  aria-pressed={status === s}
                  onClick={() => view().setStatus(s)}
                  data-testid={`status-${s}`}
                >
                  {s === 'ALL' ? 'All' : s === 'OPEN' ? 'Open' : 'Closed'}
                </button>
              ))}
            </div>
            <span className="panel-count num" data-testid="history-range">
              {total === null
                ? ''
                : total === 0
                  ? '0'
                  : `${formatInteger(offset + 1)}–${formatInteger(last)} of ${formatInteger(total)}`}
            </span>
            <button
              type="button"
              className="button button-small"
              disabled={offset === 0 || history.loading}
              onClick={() => view().setOffset(offset - POSITIONS_PAGE)}
              aria-label="Previous page"
            >
              ‹ Prev
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={total === null || last >= total || history.loading}
              onClick={() => view().setOffset(offset + POSITIONS_PAGE)}
              aria-label="Next page"
              data-testid="history-next"
            >
              Next ›
            </button>
            <ExportCsvButton
              columns={HISTORY_COLUMNS}
              rows={rows}
              name="trader-positions"
              noun="positions"
              title="Save this page of positions as a CSV file"
              testId="history-export"
            />
          </div>
        </header>
        {history.error && !history.data ? (
          <ReadFailed
            title="The positions could not be loaded"
            message={history.error.message}
            retrying={history.loading}
            onRetry={history.reload}
          />
        ) : (
          <DataTable
            rows={rows}
            columns={HISTORY_COLUMNS}
            rowKey={positionKey}
            sort={{ column: sort.field, direction: sort.direction }}
            onSort={onSort}
            onRowOpen={onRowOpen}
            loading={history.loading && !history.data}
            height={620}
            ariaLabel="Positions history; open a row for its orders"
            testId="history-table"
            empty={
              <EmptyState title={status === 'OPEN' ? 'No open position' : 'No position in the history'}>
                <p>
                  {status === 'ALL'
                    ? 'The service has no position of this trader on this protocol.'
                    : 'Switch the status filter to All to see every position.'}
                </p>
              </EmptyState>
            }
          />
        )}
      </section>
      {selectedPosition ? <PositionOrders trader={trader} position={selectedPosition} /> : null}
    </>
  );
}
