// The terminal's backtest channels (docs/ui.md, Backtest): the service's bodies
// (src/shared/api/backtest.ts) with the protocol they run on, and the answers checked as the
// service client reads them.
import { z } from 'zod';
import { protocolIdSchema, zNonEmpty, zStrict } from '../../api/common';
import {
  BACKTEST_CLOSE_REASONS,
  backtestRequestSchema,
  PRICE_PATHS,
  SWEEP_RANKS,
  sweepRequestSchema,
  type BacktestResult,
  type SweepResponse,
} from '../../api/backtest';

/** `backtest:run`: one configuration for one or several traders of one protocol. */
export const backtestRunRequestSchema = zStrict({
  protocol: protocolIdSchema,
  body: backtestRequestSchema,
});

/**
 * `backtest:sweep`: every combination of the listed settings. `runId` (chosen by the renderer)
 * names the run in its `backtest:progress` events and in `backtest:cancel`.
 */
export const backtestSweepRequestSchema = zStrict({
  protocol: protocolIdSchema,
  runId: zNonEmpty(100),
  body: sweepRequestSchema,
});

/** `backtest:cancel`: stops the sweep `runId`; `cancelled` is false when it had already ended. */
export const backtestCancelRequestSchema = zStrict({ runId: zNonEmpty(100) });
export const backtestCancelSchema = z.object({ cancelled: z.boolean() });

/** `backtest:progress`: combinations of sweep `runId` done so far, out of `total`. */
export const backtestProgressSchema = z.object({
  runId: z.string(),
  done: z.number(),
  total: z.number(),
});
export type BacktestProgress = z.infer<typeof backtestProgressSchema>;

const n = z.number();
const nullableN = z.number().nullable();

const simulatedPositionSchema = z.object({
  account: z.string(),
  indexToken: z.string(),
  pair: z.string(),
  isLong: z.boolean(),
  openTime: n,
  closeTime: n,
  entryPrice: n,
  closePrice: n,
  size: n,
  margin: n,
  leverage: n,
  realisedPnl: n,
  fee: n,
  funding: n,
  pnl: n,
});

const simulatorPositionSchema = z.object({
  position: simulatedPositionSchema,
  preBalance: n,
  balance: n,
  profit: n,
  roi: n,
  volMultiplier: n,
  closeReason: z.enum(BACKTEST_CLOSE_REASONS),
});

const summaryShape = {
  account: z.string(),
  protocol: z.string(),
  totalTrade: n,
  totalWin: n,
  totalLose: n,
  totalGain: n,
  totalLoss: n,
  profit: n,
  roi: n,
  avgRoi: n,
  minRoi: nullableN,
  maxRoi: nullableN,
  minPnl: nullableN,
  maxPnl: nullableN,
  winRate: n,
  profitRate: n,
  gainLossRatio: n,
  profitLossRatio: n,
  maxDrawDown: n,
  maxDrawDownPnl: n,
  maxDrawUp: n,
  maxVolMultiplier: n,
  totalStopLoss: n,
  totalTakeProfit: n,
  totalLiquidate: n,
  totalSkipped: n,
  fees: n,
  funding: n,
  pricePath: z.enum(PRICE_PATHS),
};

/** One account's result of `POST /{protocol}/back-testing/multiple-order`. */
export const backtestResultSchema: z.ZodType<BacktestResult> = z.object({
  ...summaryShape,
  equity: z.array(z.object({ time: n, balance: n })),
  simulatorPositions: z.array(simulatorPositionSchema).optional(),
});
export const backtestResponseSchema = z.array(backtestResultSchema);

const sweepItemSchema = z.object({
  ...summaryShape,
  rank: n,
  score: n,
  settings: z.object({
    leverage: n,
    orderVolume: n,
    stopLossAmount: nullableN,
    takeProfitAmount: nullableN,
    lookBackOrders: nullableN,
    maxVolMultiplier: nullableN,
    reverseCopy: z.boolean(),
    delaySeconds: n,
  }),
});

/** `POST /{protocol}/back-testing/sweep`: every combination, best first. */
export const sweepResponseSchema: z.ZodType<SweepResponse> = z.object({
  protocol: z.string(),
  rankBy: z.enum(SWEEP_RANKS),
  combinations: n,
  fromTime: n,
  toTime: n,
  data: z.array(sweepItemSchema),
});

/**
 * `backtest:sweep`'s answer: the sweep ranked, and whether it was cancelled (then `sweep` ranks
 * only the combinations run before the cancel, out of `total`).
 */
export const backtestSweepSchema = z.object({
  cancelled: z.boolean(),
  total: z.number(),
  sweep: sweepResponseSchema,
});
export type BacktestSweep = z.infer<typeof backtestSweepSchema>;
