import { COLUMN_WIDTHS } from '@renderer/components/table/column-kinds';
import type { FormEvent, ReactElement } from 'react';
import { useId, useState } from 'react';
import { HYPERLIQUID_PROTOCOL, type FeedAccount, type FeedStatus } from '@shared/api/feed';
import { Address } from '@renderer/components/Address';
import { EmptyState } from '@renderer/components/EmptyState';
import {
  FEED_NAME,
  REASON_TEXT,
  accountProblem,
  budgetText,
  feedBadge,
  feedProgress,
  formatSeconds,
  sinceText,
} from '@renderer/components/feed-text';
import { ProgressBar } from '@renderer/components/ProgressBar';
import { Toggle } from '@renderer/components/Toggle';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { useNow } from '@renderer/hooks/use-now';
import { formatInteger } from '@renderer/format/number';
import { formatShortTime } from '@renderer/format/time';
import { useFeed } from '@renderer/stores/feed';
import { useNavigation } from '@renderer/stores/navigation';
import { useService } from '@renderer/stores/service';
import { useSettings } from '@renderer/stores/settings';
import { Panel } from './Panel';

function accountColumns(pending: string | null, untrack: (account: string) => void): Column<FeedAccount>[] {
  return [
    {
      id: 'account',
      label: 'Account',
      width: 170,
      sortable: true,
      value: (a) => a.account,
      render: (a) => <Address address={a.account} />,
    },
    {
      id: 'reasons',
      label: 'Why',
      width: 150,
      sortable: true,
      value: (a) => (a.reasons ?? []).join(','),
      title:
        'Why the account is tracked: the venue’s leaderboard, added by you, or followed by a running copy trade',
      render: (a) => (
        <span className="muted">{(a.reasons ?? []).map((r) => REASON_TEXT[r]).join(', ') || '—'}</span>
      ),
    },
    {
      id: 'backfilled',
      label: 'History',
      width: 120,
      sortable: true,
      value: (a) => (a.error ? 0 : a.backfilled ? 2 : 1),
      title:
        'Whether the account’s whole reachable history of fills is in; the error of its last request, if any',
      render: (a) =>
        a.error ? (
          <span className="tag tag-bad" title={a.error}>
            ERROR
          </span>
        ) : a.backfilled ? (
          <span className="tag tag-good">COMPLETE</span>
        ) : (
          <span className="tag tag-warn">FILLING IN</span>
        ),
    },
    {
      id: 'fills',
      label: 'Fills',
      align: 'right',
      width: 90,
      sortable: true,
      value: (a) => a.fills,
      render: (a) => <span className="num">{formatInteger(a.fills)}</span>,
    },
    {
      id: 'firstFillTime',
      label: 'First fill',
      width: COLUMN_WIDTHS.dateTime,
      sortable: true,
      value: (a) => a.firstFillTime,
      render: (a) => <span className="num muted">{formatShortTime(a.firstFillTime)}</span>,
    },
    {
      id: 'lastFillTime',
      label: 'Last fill',
      width: COLUMN_WIDTHS.dateTime,
      sortable: true,
      value: (a) => a.lastFillTime,
      render: (a) => <span className="num muted">{formatShortTime(a.lastFillTime)}</span>,
    },
    {
      id: 'live',
      label: 'New fills',
      width: 100,
      sortable: true,
      value: (a) => a.live ?? null,
      title: 'How the account’s new fills arrive: its own WebSocket subscription (at most 10), or polling',
      render: (a) => (
        <span className="muted">
          {a.live === 'websocket' ? 'WebSocket' : a.live === 'polling' ? 'polling' : '—'}
        </span>
      ),
    },
    {
      id: 'error',
      label: 'Last error',
      width: 220,
      value: (a) => a.error ?? null,
      render: (a) =>
        a.error ? (
          <span className="cell-error" title={a.error}>
            {a.error}
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      id: 'actions',
      label: '',
      width: 100,
      stickyEnd: true,
      value: () => null,
      render: (a) => {
        const copied = a.reasons?.includes('copy') === true;
        return (
          <button
            type="button"
            className="button button-small"
            onClick={(e) => {
              e.stopPropagation();
              untrack(a.account);
            }}
            disabled={pending !== null || copied}
            title={
              copied
                ? 'A running copy trade follows this account: it stays tracked while the copy trade runs.'
                : 'Stop fetching its fills; what was fetched stays.'
            }
            data-testid="feed-remove"
          >
            {pending === a.account ? 'Removing…' : 'Remove'}
          </button>
        );
      },
    },
  ];
}

/** The feed's state, budget and backfill above the tracked list. */
function FeedSummary({ status }: { status: FeedStatus }): ReactElement {
  const now = useNow(30_000);
  const badge = feedBadge(status, now);
  const { backfilled, accounts } = feedProgress(status);
  const { weightPerMinute, usedLastMinute } = status.budget;
  return (
    <div className="feed-summary" data-testid="feed-summary">
      <p className="setting-hint">
        <span className={`tag tag-${badge?.tone ?? 'warn'}`} data-testid="feed-summary-state">
          {(badge?.value ?? status.state).toUpperCase()}
        </span>{' '}
        {status.state === 'connected'
          ? `WebSocket connected since ${sinceText(status.since, now)}`
          : status.state === 'polling'
            ? `WebSocket down since ${sinceText(status.since, now)}: new fills are asked for over HTTP`
            : 'The venue cannot be reached: the feed retries with a growing wait; what was fetched keeps working'}
        {status.pollIntervalMs
          ? ` · each polled account asked every ${formatSeconds(status.pollIntervalMs)}`
          : ''}
        {status.refusedPages ? ` · ${formatInteger(status.refusedPages)} malformed pages refused` : ''}
      </p>
      <div className="feed-bars">
        <ProgressBar
          // Unknown while the first traders are being found; empty while the venue cannot be reached.
          value={accounts > 0 ? backfilled / accounts : status.state === 'offline' ? 0 : null}
          label="Accounts backfilled"
          detail={`${formatInteger(backfilled)} / ${formatInteger(accounts)} accounts backfilled`}
          testId="feed-progress"
        />
        <ProgressBar
          value={weightPerMinute > 0 ? usedLastMinute / weightPerMinute : 0}
          label="Request budget used in the last minute"
          detail={`Requests ${budgetText(status)}`}
          testId="feed-budget"
        />
      </div>
    </div>
  );
}

function TrackForm(): ReactElement {
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const pending = useFeed((s) => s.pending);
  const track = useFeed((s) => s.track);
  const id = useId();
  const problem = touched ? accountProblem(text) : null;
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setTouched(true);
    if (accountProblem(text)) return;
    if (await track(text.trim())) {
      setText('');
      setTouched(false);
    }
  };
  return (
    <form className="setting-inline" onSubmit={(e) => void submit(e)} noValidate data-testid="feed-add-form">
      <label htmlFor={id} className="field-label">
        Track an account
      </label>
      <input
        id={id}
        className={`input mono input-address${problem ? ' is-invalid' : ''}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => setTouched(text !== '')}
        placeholder="0x… (40 hex digits)"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        data-testid="feed-add-input"
      />
      <button
        type="submit"
        className="button button-small button-primary"
        disabled={pending !== null}
        data-testid="feed-add"
      >
        {pending !== null && pending === text.trim() ? 'Adding…' : 'Track'}
      </button>
      {problem ? (
        <span id={`${id}-error`} className="field-error" data-testid="feed-add-error">
          {problem}
        </span>
      ) : null}
    </form>
  );
}

/** The tracked accounts of the venue feed, with their backfill, and the feed's budget. */
function TrackedAccounts({ on }: { on: boolean }): ReactElement {
  const status = useFeed((s) => s.status);
  const error = useFeed((s) => s.error);
  const pending = useFeed((s) => s.pending);
  const untrack = useFeed((s) => s.untrack);
  const openTrader = useNavigation((s) => s.openTrader);
  const running = status !== null && status.state !== 'off';
  let body: ReactElement;
  if (!running) {
    body = (
      <p className="setting-hint" data-testid="feed-off">
        {status === null && error
          ? `The feed’s status could not be read: ${error.message}`
          : on
            ? 'The feed is not running yet: it starts with the local service.'
            : `Turn ${FEED_NAME} on to follow real traders; the accounts tracked before, and their data, are kept.`}
      </p>
    );
  } else {
    const columns = accountColumns(pending, (account) => void untrack(account));
    body = (
      <>
        <FeedSummary status={status} />
        <TrackForm />
        <div className="toolbar">
          <div className="toolbar-end">
            <ExportCsvButton
              columns={columns}
              rows={status.accounts}
              name="tracked-accounts"
              noun="accounts"
              testId="feed-accounts-export"
            />
          </div>
        </div>
        <DataTable
          rows={status.accounts}
          columns={columns}
          rowKey={(a) => a.account}
          sort={{ column: 'fills', direction: 'desc' }}
          onRowOpen={(a) => openTrader({ protocol: HYPERLIQUID_PROTOCOL, account: a.account })}
          empty={
            <EmptyState title="No account tracked yet">
              <p>
                The feed takes the venue’s top traders from its leaderboard once it is reached; add any
                account above, or use “Track this trader” on a trader’s page.
              </p>
            </EmptyState>
          }
          height={300}
          testId="feed-accounts"
          ariaLabel="Tracked accounts"
        />
      </>
    );
  }
  return (
    <div className="setting-block" data-testid="feed-tracked">
      <div>
        <p className="setting-name">Tracked {FEED_NAME} accounts</p>
        <p className="setting-hint">
          Each account’s whole history of fills is fetched once (newest first), then its new fills as they
          happen. Open a row to see the trader.
        </p>
      </div>
      {body}
    </div>
  );
}

/**
 * Settings → Data sources: the simulated demo market and Hyperliquid's public data, each on or
 * off (the local service restarts with the matching flags), and the feed's tracked accounts.
 */
export function DataSourcesPanel(): ReactElement {
  const settings = useSettings((s) => s.settings);
  const pending = useSettings((s) => s.pending);
  const update = useSettings((s) => s.update);
  const info = useService((s) => s.info);
  const sources = settings?.dataSources;
  const applying = pending === 'dataSources';
  const remote = info?.profile.kind === 'remote';
  return (
    <Panel title="Data sources" testId="settings-data-sources">
      <p className="panel-text panel-intro">
        Where the local service’s traders come from. A change restarts the local service with it (a few
        seconds); your login, settings and cached pages stay.
      </p>
      {remote ? (
        <p className="inline-alert" role="note">
          These apply to the local service; the terminal now uses “{info.profile.name}”, whose traders come
          from that deployment.
        </p>
      ) : null}
      <div className="sources-grid">
        <Toggle
          checked={sources?.demo ?? true}
          onChange={(on) => void update({ dataSources: { demo: on } })}
          label="Demo market (simulated)"
          hint="5,000 invented traders on eight protocols, trading around the clock, so everything can be tried at once. Off: the market stops, and a new database starts without them; a database that already holds the demo traders keeps them on the leaderboard with their history."
          disabled={!settings || applying}
          testId="source-demo"
        />
        <Toggle
          checked={sources?.hyperliquid ?? true}
          onChange={(on) => void update({ dataSources: { hyperliquid: on } })}
          label={`${FEED_NAME} (real, public data; needs internet)`}
          hint="Real traders from the venue’s public API, no account needed: its top 100 by 30-day PnL, the accounts you add, and those your copy trades follow. Their histories fill in over the first minutes; without a network the feed says it is offline and the rest carries on."
          disabled={!settings || applying}
          testId="source-hyperliquid"
        />
      </div>
      {applying ? (
        <p className="setting-hint" role="status" data-testid="sources-applying">
          Restarting the local service with the new data sources…
        </p>
      ) : null}
      <TrackedAccounts on={sources?.hyperliquid ?? true} />
    </Panel>
  );
}
