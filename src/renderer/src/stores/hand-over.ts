import { create } from 'zustand';

/** A value one page hands to another: set by the first, taken (and cleared) once by the second. */
export interface HandOverStore<T> {
  prefill: T | null;
  set(prefill: T): void;
  /** Returns the value and clears it, so the receiving page fills once and not on every visit. */
  take(): T | null;
}

export function createHandOver<T>() {
  return create<HandOverStore<T>>()((set, get) => ({
    prefill: null,
    set: (prefill) => set({ prefill }),
    take() {
      const prefill = get().prefill;
      if (prefill) set({ prefill: null });
      return prefill;
    },
  }));
}
