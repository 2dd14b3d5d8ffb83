import { getAddress, isAddress } from 'viem';
import type { PnlStatisticsResponse } from '../../../shared/api/statistics';
import { dailyPnlSeries, sumSeries } from '../formulas/daily-pnl';
import type { Window } from '../formulas/windows';
import type { ServiceDb } from '../../store/database';
import { markPrices, traderFacts } from './facts';

/**
 * `pnl-statistics`: each requested account's daily series for the window, summed over the
 * protocols it was asked for (docs/api.md). Keys are the accounts as the caller wrote them.
 */
export function pnlStatistics(
  db: ServiceDb,
  accounts: { account: string; protocol: string }[],
  window: Window,
  nowMs: number,
): PnlStatisticsResponse {
  const mark = markPrices(db);
  const answer: PnlStatisticsResponse = {};
  const seen = new Set<string>();
  for (const { account, protocol } of accounts) {
    const pairKey = `${account.toLowerCase()}|${protocol}`;
    if (seen.has(pairKey)) continue;
    seen.add(pairKey);
    const stored = isAddress(account, { strict: false }) ? getAddress(account) : account;
    const series = dailyPnlSeries(traderFacts(db, stored, protocol), window, nowMs, mark);
    const earlier = answer[account];
    answer[account] = earlier ? sumSeries(earlier, series) : series;
  }
  return answer;
}
