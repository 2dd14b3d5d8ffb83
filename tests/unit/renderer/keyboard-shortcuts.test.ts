import { describe, expect, it } from 'vitest';
import {
  GO_KEYS,
  IDLE,
  SEQUENCE_MS,
  interpretKey,
  shortcutList,
  type KeyState,
} from '@renderer/keyboard/shortcut-map';
import { paletteItems, parseItemId } from '@renderer/components/palette/palette-items';
import { pageIds } from '@renderer/stores/navigation';

/** Presses keys in order, `ms` apart, and returns every action taken. */
function press(keys: string[], ms = 100): unknown[] {
  let state: KeyState = IDLE;
  const actions: unknown[] = [];
  keys.forEach((key, i) => {
    const result = interpretKey(key, state, 1_000 + i * ms);
    state = result.state;
    if (result.action) actions.push(result.action);
  });
  return actions;
}

describe('the shortcut map', () => {
  it('gives every page its own go-to key', () => {
    expect(Object.keys(GO_KEYS).sort()).toEqual([...pageIds].sort());
    const keys: string[] = Object.values(GO_KEYS);
    expect(new Set(keys).size).toBe(keys.length);
    // None collides with the single-key shortcuts.
    expect(keys.some((k) => k === '?' || k === '/' || k === 'g')).toBe(false);
  });

  it('lists the sheet, the filter, the palette and one go-to per page', () => {
    const list = shortcutList(pageIds.map((id) => ({ id, label: id })));
    expect(list.map((s) => s.id)).toEqual(['sheet', 'filter', 'palette', ...pageIds.map((id) => `go:${id}`)]);
    expect(list.find((s) => s.id === 'go:leaderboard')?.keys).toEqual(['G', 'L']);
    expect(list.find((s) => s.id === 'go:live')?.keys).toEqual(['G', 'V']);
  });

  it('runs ? and / at once, and G then a page key as a sequence', () => {
    expect(press(['?'])).toEqual([{ kind: 'sheet' }]);
    expect(press(['/'])).toEqual([{ kind: 'filter' }]);
    expect(press(['g', 'l'])).toEqual([{ kind: 'go', page: 'leaderboard' }]);
    expect(press(['G', 'S'])).toEqual([{ kind: 'go', page: 'settings' }]);
    expect(press(['g', 'f', 'g', 'a'])).toEqual([
      { kind: 'go', page: 'funds' },
      { kind: 'go', page: 'login-key' },
    ]);
  });

  it('does nothing for a page key without G, after the wait, or after an unknown key', () => {
    expect(press(['l'])).toEqual([]);
    expect(press(['g', 'l'], SEQUENCE_MS + 1)).toEqual([]);
    expect(press(['g', 'x', 'l'])).toEqual([]);
    // The second key of a sequence is never read as a shortcut of its own.
    expect(press(['g', '?'])).toEqual([]);
  });
});

describe('shortcuts in the palette', () => {
  const entries = [
    { id: 'leaderboard', label: 'Leaderboard', purpose: 'Ranks traders', shortcut: 'G L' },
    {
      id: 'sheet',
      kind: 'command' as const,
      label: 'Show the keyboard shortcuts',
      purpose: 'Keyboard shortcut',
      shortcut: '?',
    },
  ];

  it('finds a shortcut by its name, with its keys, and opens it as a command', () => {
    const [first] = paletteItems('shortcuts', entries, [], []);
    expect(first).toMatchObject({ id: 'command:sheet', kind: 'command', shortcut: '?' });
    expect(parseItemId(first!.id)).toEqual({ command: 'sheet' });
    const [page] = paletteItems('lead', entries, [], []);
    expect(page).toMatchObject({ id: 'page:leaderboard', kind: 'page', shortcut: 'G L' });
  });
});
