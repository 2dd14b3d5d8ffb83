import { createHandOver } from '@renderer/stores/hand-over';
import type { CopyTradeFormValues } from '@renderer/copy-trades/copy-trade-form';

/**
 * What "Backtest" (trader page) and "Backtest these settings" (copy-trade form) hand to the
 * Backtest page. Kept apart from the page's own modules, so that the pages which hand over do not
 * load the backtest code (it comes with the page, on first visit).
 */
export type BacktestPrefill =
  { kind: 'trader'; protocol: string; account: string } | { kind: 'copyForm'; values: CopyTradeFormValues };

export const useBacktestPrefill = createHandOver<BacktestPrefill>();
