// Every keyboard shortcut of the terminal, in one pure map: the sheet (`?`), the palette and the
// key handler all read it, so a shortcut cannot exist in one and be missing from another.
// docs/ui.md, Keyboard.
import type { PageId } from '@renderer/stores/navigation';

/** What a shortcut does. */
export type ShortcutAction =
  { kind: 'sheet' } | { kind: 'filter' } | { kind: 'palette' } | { kind: 'go'; page: PageId };

export interface Shortcut {
  id: string;
  /** The keys as the sheet shows them, pressed one after the other (`['G', 'L']`). */
  keys: readonly string[];
  label: string;
  action: ShortcutAction;
}

/**
 * The second key of each go-to shortcut (G, then this key). The first letter of the page's name
 * where it is free; Live takes V (L is the leaderboard), Tokens K, the Login key A (account).
 */
export const GO_KEYS = {
  leaderboard: 'l',
  trader: 't',
  live: 'v',
  tokens: 'k',
  backtest: 'b',
  copy: 'c',
  funds: 'f',
  'login-key': 'a',
  settings: 's',
} as const satisfies Record<PageId, string>;

/** How long after G the second key of a go-to shortcut is awaited. */
export const SEQUENCE_MS = 1_500;

/** Every shortcut: the general ones, then one go-to per page in `pageLabels`' order. */
export function shortcutList(pageLabels: readonly { id: PageId; label: string }[]): Shortcut[] {
  return [
    { id: 'sheet', keys: ['?'], label: 'Show the keyboard shortcuts', action: { kind: 'sheet' } },
    {
      id: 'filter',
      keys: ['/'],
      label: "Focus the page's filter or search",
      action: { kind: 'filter' },
    },
    { id: 'palette', keys: ['Ctrl', 'K'], label: 'Open the command palette', action: { kind: 'palette' } },
    ...pageLabels.map((p): Shortcut => ({
      id: `go:${p.id}`,
      keys: ['G', GO_KEYS[p.id].toUpperCase()],
      label: `Go to ${p.label}`,
      action: { kind: 'go', page: p.id },
    })),
  ];
}

/** What the handler remembers between keys: when G was pressed, if it awaits a second key. */
export interface KeyState {
  goSince: number | null;
}

export const IDLE: KeyState = { goSince: null };

const PAGE_BY_KEY = new Map<string, PageId>(
  Object.entries(GO_KEYS).map(([page, key]) => [key, page as PageId]),
);

/**
 * What one key press (a `KeyboardEvent.key`, without Ctrl, Alt or ⌘) does, and the state after
 * it. `?` and `/` act at once; G starts a go-to sequence that the next key within SEQUENCE_MS
 * completes (an unknown key ends it, doing nothing).
 */
export function interpretKey(
  key: string,
  state: KeyState,
  now: number,
): { action: ShortcutAction | null; state: KeyState } {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (state.goSince !== null && now - state.goSince <= SEQUENCE_MS) {
    const page = PAGE_BY_KEY.get(k);
    return { action: page ? { kind: 'go', page } : null, state: IDLE };
  }
  if (key === '?') return { action: { kind: 'sheet' }, state: IDLE };
  if (key === '/') return { action: { kind: 'filter' }, state: IDLE };
  if (k === 'g') return { action: null, state: { goSince: now } };
  return { action: null, state: IDLE };
}

/** Keys typed into a field belong to the field, not to the shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return false;
  if (target.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  const tag = target.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag !== 'input') return false;
  const type = (target.getAttribute('type') ?? 'text').toLowerCase();
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}
