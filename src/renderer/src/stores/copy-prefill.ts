import { create } from 'zustand';
import type { CopyTradeFormValues } from '../pages/copy/copy-trade-form';

/** The trader a "Copy this trader" button hands to the copy form. */
export interface CopyPrefill {
  account: string;
  protocol: string;
  /** Every option (the Backtest page's "Copy with these settings"). */
  values?: Partial<CopyTradeFormValues>;
}

interface CopyPrefillStore {
  prefill: CopyPrefill | null;
  set(prefill: CopyPrefill): void;
  /** Returns the prefill and clears it, so the form fills once and not on every visit. */
  take(): CopyPrefill | null;
}

/** Hand-over from the trader page (and the leaderboard) to the copy trading form. */
export const useCopyPrefill = create<CopyPrefillStore>()((set, get) => ({
  prefill: null,
  set: (prefill) => set({ prefill }),
  take() {
    const prefill = get().prefill;
    if (prefill) set({ prefill: null });
    return prefill;
  },
}));
