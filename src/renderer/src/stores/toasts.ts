import { create } from 'zustand';

export type ToastTone = 'error' | 'success' | 'info';

/** One notification: a short title and a sentence a trader can act on. */
export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  message: string;
  /** The AppError code, when the toast reports a failure. */
  code: string | null;
  /** How many times the same toast was raised while it was on screen. */
  count: number;
}

export interface ToastInput {
  tone: ToastTone;
  title: string;
  message: string;
  code?: string;
}

interface ToastsState {
  toasts: Toast[];
  push(input: ToastInput): void;
  dismiss(id: number): void;
}

// Errors stay long enough to be read twice; confirmations only need a glance.
const LIFETIME_MS: Record<ToastTone, number> = { error: 9_000, info: 5_000, success: 3_500 };
const MAX_VISIBLE = 4;

const timers = new Map<number, number>();
let nextId = 1;

/** Toasts on screen; `push` is called from `ipc/call.ts` for every failure and from a few actions. */
export const useToasts = create<ToastsState>()((set, get) => {
  const arm = (toast: Toast): void => {
    window.clearTimeout(timers.get(toast.id));
    timers.set(
      toast.id,
      window.setTimeout(() => get().dismiss(toast.id), LIFETIME_MS[toast.tone]),
    );
  };

  return {
    toasts: [],
    push(input) {
      // Four calls failing for one reason (the core went away) make one toast, not four.
      const same = get().toasts.find((t) => t.tone === input.tone && t.message === input.message);
      if (same) {
        const title = same.title === input.title ? same.title : 'Several requests failed';
        const bumped = { ...same, title, count: same.count + 1 };
        set({ toasts: get().toasts.map((t) => (t.id === same.id ? bumped : t)) });
        arm(bumped);
        return;
      }
      const toast: Toast = { ...input, id: nextId++, code: input.code ?? null, count: 1 };
      const kept = get().toasts.slice(-(MAX_VISIBLE - 1));
      for (const dropped of get().toasts.slice(0, -(MAX_VISIBLE - 1)))
        window.clearTimeout(timers.get(dropped.id));
      set({ toasts: [...kept, toast] });
      arm(toast);
    },
    dismiss(id) {
      window.clearTimeout(timers.get(id));
      timers.delete(id);
      set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
  };
});

/** Raises a toast from outside React (stores, ipc). */
export const toast = (input: ToastInput): void => useToasts.getState().push(input);
