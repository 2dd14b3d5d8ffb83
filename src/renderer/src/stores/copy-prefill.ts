import { createHandOver } from './hand-over';
import type { CopyTradeFormValues } from '@renderer/copy-trades/copy-trade-form';

/** The trader a "Copy this trader" button hands to the copy form. */
export interface CopyPrefill {
  account: string;
  protocol: string;
  /** Every option (the Backtest page's "Copy with these settings"). */
  values?: Partial<CopyTradeFormValues>;
}

/** Hand-over from the trader page (and the leaderboard) to the copy trading form. */
export const useCopyPrefill = createHandOver<CopyPrefill>();
