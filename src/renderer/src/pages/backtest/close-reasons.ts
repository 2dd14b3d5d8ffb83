import type { BacktestCloseReason } from '@shared/api/backtest';

/** Why a simulated position closed, in words (the table and the price charts' exit marks). */
export const CLOSE_REASON_LABELS: Record<BacktestCloseReason, string> = {
  COPY_TRADE: 'Trader closed',
  OVERWRITE: 'Overwritten',
  STOP_LOSS: 'Stop loss',
  TAKE_PROFIT: 'Take profit',
  LIQUIDATE: 'Liquidated',
  WINDOW_END: 'Window end',
};
