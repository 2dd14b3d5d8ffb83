import { create } from 'zustand';
import type { CopyTradeFormValues } from '../copy/copy-trade-form';

/**
 * What "Backtest" (trader page) and "Backtest these settings" (copy-trade form) hand to the
 * Backtest page. Kept apart from the page's own modules, so that the pages which hand over do not
 * load the backtest code (it comes with the page, on first visit).
 */
export type BacktestPrefill =
  { kind: 'trader'; protocol: string; account: string } | { kind: 'copyForm'; values: CopyTradeFormValues };

interface BacktestPrefillStore {
  prefill: BacktestPrefill | null;
  set(prefill: BacktestPrefill): void;
  /** Returns the prefill and clears it, so the page fills once. */
  take(): BacktestPrefill | null;
}

export const useBacktestPrefill = create<BacktestPrefillStore>()((set, get) => ({
  prefill: null,
  set: (prefill) => set({ prefill }),
  take() {
    const prefill = get().prefill;
    if (prefill) set({ prefill: null });
    return prefill;
  },
}));
