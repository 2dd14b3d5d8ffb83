import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { ActivityLog } from '@shared/api/activity-logs';
import type { CopyTradeListItem } from '@shared/api/copy-trades';
import type { ChannelRequest } from '@shared/ipc/contract';
import { Address } from '@renderer/components/Address';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { Freshness } from '@renderer/components/Freshness';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { TitleCell } from '@renderer/components/table/TitleCell';
import {
  COLUMN_WIDTHS,
  leverageColumn,
  shortenedTextColumn,
  sideColumn,
  symbolColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { formatPercent, formatPrice } from '@renderer/format/number';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';
import { useChannel } from '@renderer/ipc/use-channel';
import { useCopyView } from '@renderer/stores/copy-view';
import { useReloadOn } from '@renderer/stores/revisions';
import { ACTIVITY_LABELS, activityTone } from './copy-labels';
import { CopyTradeSelect } from './CopyTradeSelect';
import { Pager } from './Pager';

const PAGE_SIZE = 100;

/** How far the copy's fill was from the trader's, in percent of the trader's price. */
const slippage = (a: ActivityLog): number | null =>
  a.sourcePrice > 0 && a.price > 0 ? ((a.price - a.sourcePrice) / a.sourcePrice) * 100 : null;

const columns: Column<ActivityLog>[] = [
  {
    id: 'createdAt',
    label: 'Time',
    // Minutes: with seconds the log no longer fit a 1440-pixel window; they are in the tooltip.
    width: COLUMN_WIDTHS.dateTime,
    sortable: true,
    value: (a) => a.createdAt,
    render: (a) => (
      <span className="num muted" title={formatTimestamp(a.createdAt)}>
        {formatShortTime(a.createdAt)}
      </span>
    ),
  },
  {
    id: 'type',
    label: 'Action',
    width: 150,
    sortable: true,
    value: (a) => `${a.type}${a.isSuccess ? '' : ' FAILED'}${a.reason ? `: ${a.reason}` : ''}`,
    render: (a) => <ActionCell log={a} />,
  },
  symbolColumn({ width: COLUMN_WIDTHS.pair, get: (a) => a.pair }),
  sideColumn({ width: COLUMN_WIDTHS.sideReversed, isLong: (a) => a.isLong, reversed: (a) => a.isReverse }),
  {
    id: 'copyTradeTitle',
    label: 'Copy trade · trader',
    width: 170,
    sortable: true,
    value: (a) => a.copyTradeTitle,
    render: (a) => (
      <TitleCell title={a.copyTradeTitle} sub={<Address address={a.sourceAccount} className="cell-sub" />} />
    ),
  },
  usdColumn({
    id: 'volume',
    label: 'Volume',
    title: 'Size of the copied order in USD',
    width: 96,
    sortable: true,
    get: (a) => a.volume,
  }),
  leverageColumn({
    id: 'leverage',
    label: 'Lev',
    width: COLUMN_WIDTHS.leverage,
    sortable: true,
    get: (a) => a.leverage,
  }),
  {
    id: 'price',
    label: 'Fill · trader',
    title: 'Your fill price and the trader’s price',
    align: 'right',
    width: 128,
    sortable: true,
    value: (a) => a.price,
    // Two lines, not one: both prices side by side overflowed the column for four-digit prices
    // with cents, and a right-aligned cell loses its first digits when it overflows.
    render: (a) => (
      <span className="cell-stack cell-stack-end num">
        <span className="cell-title" title={`Your fill ${formatPrice(a.price)}`}>
          {formatPrice(a.price)}
        </span>
        <span className="cell-sub" title={`The trader's price ${formatPrice(a.sourcePrice)}`}>
          trader {formatPrice(a.sourcePrice)}
        </span>
      </span>
    ),
  },
  {
    id: 'slippage',
    label: 'Slip.',
    title: 'Your fill vs the trader’s price',
    align: 'right',
    width: 72,
    sortable: true,
    value: slippage,
    render: (a) => (
      <span className="num muted">{formatPercent(slippage(a), { signed: true, fixed: true })}</span>
    ),
  },
  shortenedTextColumn({ id: 'wallet', label: 'Wallet', width: 120, get: (a) => a.copyWalletName }),
];

/** The action, and for a failed one the FAILED tag over why it failed, when the service says. */
function ActionCell({ log }: { log: ActivityLog }): ReactElement {
  const tags = (
    <span className="cell-inline">
      <span className={`tag ${activityTone(log.type)}`}>{ACTIVITY_LABELS[log.type]}</span>
      {log.isSuccess ? null : (
        <span
          className="tag tag-bad"
          title={`The copy order failed: nothing was opened or changed.${log.reason ? ` ${log.reason}.` : ''}`}
          data-testid="activity-failed"
        >
          FAILED
        </span>
      )}
    </span>
  );
  if (log.isSuccess || !log.reason) return tags;
  return (
    <span className="cell-stack">
      {tags}
      <span className="cell-sub" title={log.reason} data-testid="activity-reason">
        {log.reason}
      </span>
    </span>
  );
}

/** What the copy trades did, newest first (`activityLogs:page`). */
export function ActivityLogPanel({ trades }: { trades: readonly CopyTradeListItem[] | null }): ReactElement {
  const copyTradeId = useCopyView((s) => s.copyTradeId);
  const setView = useCopyView((s) => s.set);
  const [paging, setPaging] = useState({ key: copyTradeId, offset: 0 });
  const offset = paging.key === copyTradeId ? paging.offset : 0;

  const request = useMemo(
    (): ChannelRequest<'activityLogs:page'> => ({
      pagination: { limit: PAGE_SIZE, offset },
      sortType: 'desc',
      ranges: copyTradeId ? [{ fieldName: 'copyTradeId', in: [copyTradeId] }] : [],
    }),
    [copyTradeId, offset],
  );
  const page = useChannel('activityLogs:page', request);
  useReloadOn('copy', page.reload);

  return (
    <>
      <div className="toolbar panel-toolbar">
        <CopyTradeSelect
          value={copyTradeId}
          trades={trades}
          onChange={(id) => setView({ copyTradeId: id })}
          testId="activity-trade"
        />
        <span className="toolbar-summary">Skipped positions (filters, sides) write nothing here.</span>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={columns}
            rows={page.data?.data ?? []}
            name="copy-activity"
            noun="actions"
          />
          <Freshness freshness={page.freshness} testId="activity-freshness" />
        </div>
      </div>
      {page.error && !page.data ? (
        <ReadFailed
          title="The activity log could not be loaded"
          message={page.error.message}
          retrying={page.loading}
          onRetry={page.reload}
        />
      ) : (
        <DataTable
          rows={page.data?.data ?? []}
          columns={columns}
          rowKey={(a) => a.id}
          loading={page.data === null}
          empty={
            <EmptyState title="Nothing copied yet">
              <p>
                Every open, increase, decrease and close a copy trade makes is logged here, failed ones too.
              </p>
            </EmptyState>
          }
          height={560}
          testId="activity-table"
          ariaLabel="Activity log"
        />
      )}
      {page.data ? (
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          total={page.data.meta.total}
          onOffset={(next) => setPaging({ key: copyTradeId, offset: next })}
          unit="actions"
        />
      ) : null}
    </>
  );
}
