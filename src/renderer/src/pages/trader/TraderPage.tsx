import type { ReactElement } from 'react';
import { useEffect, useMemo, useRef } from 'react';
import { HYPERLIQUID_PROTOCOL } from '@shared/api/feed';
import type { Window } from '@shared/api/common';
import type { RankedPositionStatistic } from '@shared/api/statistics';
import { Address } from '@renderer/components/Address';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { Freshness } from '@renderer/components/Freshness';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { formatAge } from '@renderer/format/age';
import { formatInteger, formatUsd, signClass } from '@renderer/format/number';
import { formatUtcDay } from '@renderer/format/time';
import { FEED_NAME, trackedAccount } from '@renderer/components/feed-text';
import { useFeed } from '@renderer/stores/feed';
import { useChannel } from '@renderer/ipc/use-channel';
import { useCopyPrefill } from '@renderer/stores/copy-prefill';
import { useLeaderboard } from '@renderer/stores/leaderboard';
import { useNavigation, type TraderRef } from '@renderer/stores/navigation';
import { selectLoggedIn, useSession } from '@renderer/stores/session';
import { useTraderView } from '@renderer/stores/trader';
import { useTokens } from '@renderer/stores/tradable-tokens';
import {
  WINDOW_LABELS,
  WINDOW_ORDER,
  formatStat,
  statField,
  windowMeaning,
} from '@renderer/statistics/statistic-fields';
import { WindowTabs } from '@renderer/pages/leaderboard/WindowTabs';
import { PnlChart } from './PnlChart';
import { PriceChartPanel } from './PriceChartPanel';
import { cumulativePnl, type PnlPoint } from '@renderer/statistics/pnl-series';
import { OpenPositions, PositionsHistory } from './PositionsPanel';
import { RankingBars } from './RankingBars';
import { StatGrid } from './StatGrid';
import { TraderPicker } from './TraderPicker';
import { TrackTrader } from './TrackTrader';
import { AssumedLeverageNote } from '@renderer/components/AssumedLeverage';
import { useBacktestPrefill } from '@renderer/pages/backtest/backtest-prefill';

const KEY_FIGURES = [
  'pnl',
  'realisedPnl',
  'winRate',
  'realisedAvgRoi',
  'realisedMaxDrawdown',
  'totalTrade',
  'totalVolume',
] as const;

function KeyFigures({ record }: { record: RankedPositionStatistic }): ReactElement {
  return (
    <dl className="key-figures" data-testid="key-figures">
      {KEY_FIGURES.map((key) => {
        const field = statField(key);
        const v = record[key] ?? null;
        return (
          <div key={key} className="key-figure" title={`${field.label}: ${field.formula}`}>
            <dt>{field.label}</dt>
            <dd className={`num ${field.signed ? signClass(v) : ''}`}>
              {formatStat(field.kind, v, { compact: true })}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** One sentence on the chart: where the running total ends and the best and worst days. */
function chartSummary(points: readonly PnlPoint[]): string {
  if (points.length === 0) return 'No days to chart.';
  const last = points[points.length - 1]!;
  let best = points[0]!;
  let worst = points[0]!;
  for (const p of points) {
    if (p.daily > best.daily) best = p;
    if (p.daily < worst.daily) worst = p;
  }
  const day = (p: PnlPoint): string => formatUtcDay(new Date(p.time * 1000));
  const bestText =
    best.daily > 0 ? `best day ${formatUsd(best.daily, { signed: true })} (${day(best)})` : 'no winning day';
  const worstText =
    worst.daily < 0 ? `worst ${formatUsd(worst.daily, { signed: true })} (${day(worst)})` : 'no losing day';
  // The series runs through today and marks today's open positions, so it differs from the
  // window's PnL card (full days only, closed positions): say so rather than leave two totals.
  return `Net ${formatUsd(last.cumulative, { signed: true })} over ${points.length} days through today (open positions marked); ${bestText}, ${worstText}.`;
}

function PnlPanel({ trader, window }: { trader: TraderRef; window: Window }): ReactElement {
  const pnl = useChannel('statistics:pnl', { accounts: [trader], window });
  const series = pnl.data?.[trader.account];
  const points = useMemo(() => cumulativePnl(series), [series]);
  let content: ReactElement;
  if (pnl.error && !pnl.data) {
    content = (
      <ReadFailed
        title="The daily PnL could not be loaded"
        message={pnl.error.message}
        retrying={pnl.loading}
        onRetry={pnl.reload}
      />
    );
  } else if (!pnl.data) {
    content = <div className="chart-skeleton skeleton" aria-hidden="true" />;
  } else if (points.length === 0) {
    content = (
      <EmptyState title="No daily PnL in this window">
        <p>The trader closed nothing in {WINDOW_LABELS[window]}. Pick a longer window.</p>
      </EmptyState>
    );
  } else {
    const last = points[points.length - 1]!.cumulative;
    content = (
      <figure className="chart-figure">
        <PnlChart points={points} />
        <figcaption className="chart-caption">
          <span className={`num ${signClass(last)}`} data-testid="pnl-chart-total">
            {formatUsd(last, { signed: true })}
          </span>{' '}
          <span className="muted">{chartSummary(points)}</span>
        </figcaption>
      </figure>
    );
  }
  return (
    <section className="panel" aria-labelledby="pnl-title" data-testid="pnl-panel">
      <header className="panel-header">
        <h2 id="pnl-title">Daily PnL · {WINDOW_LABELS[window]}</h2>
        <span
          className="panel-count"
          title="Each day: realised PnL of the positions closed that day − their fees; today adds the unrealised PnL of open positions. The line is the running total."
        >
          cumulative, realised − fees + unrealised
        </span>
      </header>
      <div className="panel-body">{content}</div>
    </section>
  );
}

function TraderView({ trader }: { trader: TraderRef }): ReactElement {
  const window = useTraderView((s) => s.window);
  const showFormulas = useTraderView((s) => s.showFormulas);
  const view = useTraderView.getState;
  const openTrader = useNavigation((s) => s.openTrader);
  const go = useNavigation((s) => s.go);
  const known = useLeaderboard((s) => s.knownProtocols);
  const tokens = useTokens((s) => s.list);
  const stats = useChannel('trader:statistics', trader);
  const onFeed = trader.protocol === HYPERLIQUID_PROTOCOL;
  const feedAccount = useFeed((s) => (onFeed ? trackedAccount(s.status, trader.account) : null));

  useEffect(() => {
    view().resetFor(trader);
  }, [trader, view]);

  // A Hyperliquid trader the feed follows: its statistics are read again each time the feed has
  // recomputed them (they lag its fills by up to ~10 s, so the fill count is not the signal).
  const recomputed = feedAccount?.statisticsTime ?? null;
  const seenRecompute = useRef(recomputed);
  const latestStats = useRef(stats);
  useEffect(() => {
    latestStats.current = stats;
  });
  useEffect(() => {
    if (recomputed === seenRecompute.current) return;
    seenRecompute.current = recomputed;
    if (recomputed !== null) latestStats.current.reload();
  }, [recomputed]);

  const available = new Set(WINDOW_ORDER.filter((w) => stats.data?.[w]));
  const record = stats.data?.[window] ?? null;
  const anyRecord = stats.data
    ? (stats.data.FULL ?? WINDOW_ORDER.map((w) => stats.data?.[w]).find(Boolean) ?? null)
    : null;
  const protocols = tokens ? tokens.groups.map((g) => g.protocol) : known;

  const copy = (): void => {
    useCopyPrefill.getState().set({ account: trader.account, protocol: trader.protocol });
    go('copy');
  };
  const backtest = (): void => {
    useBacktestPrefill.getState().set({ kind: 'trader', protocol: trader.protocol, account: trader.account });
    go('backtest');
  };

  let body: ReactElement;
  const needsLogin = stats.error?.code === 'NOT_LOGGED_IN' && !stats.data;
  if (needsLogin) {
    body = (
      <LoginFirst
        what="this trader"
        why="The service shares trader statistics and positions with signed-in users. Logging in signs a message with your login key — no transaction, no fee."
        testId="trader-login"
      />
    );
  } else if (onFeed && stats.error?.code === 'NOT_FOUND' && !stats.data) {
    // The feed has no closed position of this account (yet): say why, and what to do.
    body = (
      <div className="panel">
        <EmptyState
          title={
            !feedAccount
              ? `Not tracked on ${FEED_NAME}`
              : feedAccount.backfilled
                ? 'No closed position yet'
                : 'Its history is filling in'
          }
          testId="trader-feed-empty"
        >
          <p>
            {!feedAccount
              ? `Copydesk has none of this account’s fills. Track this trader to fetch its whole history from ${FEED_NAME}, then its new fills.`
              : feedAccount.backfilled
                ? `The feed has its whole history (${formatInteger(feedAccount.fills)} fills) but no closed position; the statistics appear once one closes.`
                : `${formatInteger(feedAccount.fills)} fills fetched so far, newest first. The statistics appear here as its positions are rebuilt.`}
          </p>
        </EmptyState>
      </div>
    );
  } else if (stats.error && !stats.data) {
    body = (
      <div className="panel">
        <ReadFailed
          title="The trader’s statistics could not be loaded"
          message={stats.error.message}
          retrying={stats.loading}
          onRetry={stats.reload}
        />
      </div>
    );
  } else if (!stats.data) {
    body = (
      <div className="panel panel-body" aria-busy="true">
        <SkeletonLines lines={8} />
      </div>
    );
  } else if (!record) {
    const nearest = WINDOW_ORDER.find((w) => available.has(w));
    body = (
      <div className="panel">
        <EmptyState
          title={`No closed position in ${WINDOW_LABELS[window]}`}
          action={
            nearest ? (
              <button type="button" className="button" onClick={() => view().setWindow(nearest)}>
                Show {WINDOW_LABELS[nearest]}
              </button>
            ) : undefined
          }
        >
          <p>
            {windowMeaning(window)}{' '}
            {nearest
              ? 'Other windows have statistics.'
              : 'The trader has no closed position on this protocol at all; try another protocol.'}
          </p>
        </EmptyState>
      </div>
    );
  } else {
    body = (
      <>
        <KeyFigures record={record} />
        <AssumedLeverageNote protocols={[trader.protocol]} />
        <div className="trader-grid">
          <PnlPanel trader={trader} window={window} />
          <section className="panel" aria-labelledby="ranking-title">
            <header className="panel-header">
              <h2 id="ranking-title">Percentile ranking · {WINDOW_LABELS[window]}</h2>
              {/* Short, so that the header keeps one line on a laptop-sized window; the panel
                  itself says "among this protocol's traders". */}
              <span
                className="panel-count"
                title={`100 = the best trader of ${trader.protocol} over the window`}
              >
                100 = best
              </span>
            </header>
            <div className="panel-body">
              <RankingBars ranking={record.ranking} />
            </div>
          </section>
        </div>
        <PriceChartPanel trader={trader} />
        <section className="panel" aria-labelledby="stats-title">
          <header className="panel-header">
            <h2 id="stats-title">All statistics · {WINDOW_LABELS[window]}</h2>
            <label className="check">
              <input
                type="checkbox"
                checked={showFormulas}
                onChange={() => view().toggleFormulas()}
                data-testid="show-formulas"
              />
              <span>Show formulas</span>
            </label>
          </header>
          <div className="panel-body">
            <StatGrid record={record} showFormulas={showFormulas} />
          </div>
        </section>
      </>
    );
  }

  return (
    <section className="page" aria-labelledby="page-title" data-testid="trader-page">
      <header className="page-header page-header-row trader-header">
        <div className="trader-identity">
          <h1 id="page-title">
            Trader <span className="visually-hidden">{trader.account}</span>
          </h1>
          <Address address={trader.account} full testId="trader-address" />
          <p className="page-lede">
            {anyRecord ? (
              <>
                Active {anyRecord.runTimeDays} days on {trader.protocol} · last close{' '}
                {formatAge(anyRecord.lastTradeAt)} ago
                {anyRecord.isOpenPosition ? ' · has open positions' : ''}
              </>
            ) : (
              <>On {trader.protocol}</>
            )}
          </p>
        </div>
        <div className="trader-actions">
          {stats.freshness || stats.loading ? (
            <Freshness freshness={stats.freshness} testId="trader-freshness" />
          ) : null}
          <TrackTrader trader={trader} />
          <button type="button" className="button" onClick={backtest} data-testid="backtest-trader">
            Backtest
          </button>
          <button type="button" className="button button-primary" onClick={copy} data-testid="copy-trader">
            Copy this trader
          </button>
        </div>
      </header>
      <div className="toolbar toolbar-wrap">
        <label className="inline-field">
          <span className="field-label">Protocol</span>
          <select
            className="input select"
            value={trader.protocol}
            onChange={(e) => openTrader({ protocol: e.target.value, account: trader.account })}
            data-testid="trader-protocol"
          >
            {(protocols.includes(trader.protocol) ? protocols : [trader.protocol, ...protocols]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <WindowTabs
          value={window}
          onChange={(w) => view().setWindow(w)}
          available={stats.data ? available : undefined}
          testId="trader-window"
        />
        <span className="muted toolbar-note">{windowMeaning(window)}</span>
      </div>
      {body}
      {needsLogin ? null : (
        <>
          <OpenPositions trader={trader} />
          <PositionsHistory trader={trader} />
        </>
      )}
    </section>
  );
}

/** One trader of one protocol: statistics, percentiles, daily PnL, positions and their orders. */
export function TraderPage(): ReactElement {
  const trader = useNavigation((s) => s.trader);
  // Logging in remounts the view, so that the reads refused without a session run again.
  const loggedIn = useSession(selectLoggedIn);
  // A Hyperliquid trader's history complete: every panel reads again once (positions included).
  const complete = useFeed(
    (s) =>
      trader?.protocol === HYPERLIQUID_PROTOCOL &&
      trackedAccount(s.status, trader.account)?.backfilled === true,
  );
  if (!trader) return <TraderPicker />;
  return <TraderView key={`${trader.protocol}/${trader.account}/${loggedIn}/${complete}`} trader={trader} />;
}
