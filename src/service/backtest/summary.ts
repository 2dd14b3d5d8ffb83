// A run's headline figures, defined like a trader's statistic record (docs/statistics.md) over
// the simulated positions, with `profit` (pnl net of fees and funding) deciding a win
// (docs/backtest.md, Result).
import type { BacktestSummary, PricePathKind } from '../../shared/api/backtest';
import { roundUsd } from '../copy-trading/money';
import type { RunTotals } from './simulate';

/** Percent figures to 4 decimals, ratios too: enough for a grid, no float noise on the wire. */
const round4 = (x: number): number => {
  const r = Math.round(x * 10_000) / 10_000;
  return r === 0 ? 0 : r;
};
const orNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The summary of one account's run with `balance` to start. */
export function summaryOf(
  account: string,
  protocol: string,
  balance: number,
  t: RunTotals,
  pricePath: PricePathKind,
): BacktestSummary {
  const n = t.totalTrade;
  const gain = roundUsd(t.totalGain);
  const loss = roundUsd(t.totalLoss);
  const lose = n - t.totalWin;
  const absLoss = Math.abs(loss);
  const profit = roundUsd(t.finalBalance - balance);
  return {
    account,
    protocol,
    totalTrade: n,
    totalWin: t.totalWin,
    totalLose: lose,
    totalGain: gain,
    totalLoss: loss,
    profit,
    roi: round4((profit / balance) * 100),
    avgRoi: n === 0 ? 0 : round4(t.sumRoi / n),
    minRoi: orNull(round4(t.minRoi)),
    maxRoi: orNull(round4(t.maxRoi)),
    minPnl: orNull(roundUsd(t.minPnl)),
    maxPnl: orNull(roundUsd(t.maxPnl)),
    winRate: n === 0 ? 0 : round4((t.totalWin / n) * 100),
    profitRate: gain + absLoss === 0 ? 0 : round4((gain / (gain + absLoss)) * 100),
    gainLossRatio: absLoss === 0 ? gain : round4(gain / absLoss),
    profitLossRatio:
      t.totalWin === 0 || lose === 0 || absLoss === 0 ? 0 : round4(gain / t.totalWin / (absLoss / lose)),
    maxDrawDown: round4(t.maxDrawDown),
    maxDrawDownPnl: roundUsd(t.maxDrawDownPnl),
    maxDrawUp: round4(t.maxDrawUp),
    maxVolMultiplier: round4(t.maxVolMultiplier),
    totalStopLoss: t.totalStopLoss,
    totalTakeProfit: t.totalTakeProfit,
    totalLiquidate: t.totalLiquidate,
    totalSkipped: t.totalSkipped,
    fees: roundUsd(t.fees),
    funding: roundUsd(t.funding),
    pricePath,
  };
}
