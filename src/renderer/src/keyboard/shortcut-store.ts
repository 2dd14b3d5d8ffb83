import { create } from 'zustand';

interface ShortcutStore {
  /** The sheet of every shortcut is open. */
  sheetOpen: boolean;
  /** The command palette is open (Ctrl/⌘-K, or asked for from the sheet). */
  paletteOpen: boolean;
  setSheet(open: boolean): void;
  setPalette(open: boolean): void;
}

/** Which keyboard surfaces are open: the shortcut sheet and the command palette. */
export const useShortcuts = create<ShortcutStore>()((set) => ({
  sheetOpen: false,
  paletteOpen: false,
  setSheet: (sheetOpen) => set({ sheetOpen }),
  setPalette: (paletteOpen) => set({ paletteOpen }),
}));
