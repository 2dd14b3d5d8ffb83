import { create } from 'zustand';
import type { CopyTradeStatus } from '@shared/api/copy-trades';
import type { CopyTradeFormValues } from '@renderer/copy-trades/copy-trade-form';

export type CopyTab = 'trades' | 'positions' | 'activity';
export type PositionsStatus = 'OPEN' | 'CLOSE';
export type SideFilter = 'BOTH' | 'LONG' | 'SHORT';

/** Which form is open: a new copy trade (maybe prefilled) or an edit of one. */
export type CopyForm =
  | { mode: 'create'; account?: string; protocol?: string; values?: Partial<CopyTradeFormValues> }
  | { mode: 'edit'; id: string };

interface CopyViewStore {
  tab: CopyTab;
  tradesStatus: CopyTradeStatus | 'ALL';
  positionsStatus: PositionsStatus;
  positionsSide: SideFilter;
  /** Narrow positions and activity to one copy trade ('' for all). */
  copyTradeId: string;
  /** Narrow positions to one copy wallet ('' for all). */
  copyWalletId: string;
  /** The copy position whose orders are shown in the drawer. */
  openPositionId: string | null;
  form: CopyForm | null;
  setTab(tab: CopyTab): void;
  set(patch: Partial<Omit<CopyViewStore, 'setTab' | 'set' | 'showPositionsOf'>>): void;
  /** Jumps to the positions of one copy trade. */
  showPositionsOf(copyTradeId: string): void;
}

/** The Copy trading page's tab, filters and open drawers, kept across visits. */
export const useCopyView = create<CopyViewStore>()((set) => ({
  tab: 'trades',
  tradesStatus: 'ALL',
  positionsStatus: 'OPEN',
  positionsSide: 'BOTH',
  copyTradeId: '',
  copyWalletId: '',
  openPositionId: null,
  form: null,
  setTab: (tab) => set({ tab }),
  set: (patch) => set(patch),
  showPositionsOf: (copyTradeId) => set({ tab: 'positions', copyTradeId, copyWalletId: '' }),
}));
