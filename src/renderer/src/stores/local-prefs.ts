/**
 * View preferences kept in the window's localStorage (column choices, filter presets, the last
 * protocols): small, per machine, and harmless to lose. Nothing secret is ever put here.
 */
const PREFIX = 'copydesk.';

/** The stored JSON under `key`, or `fallback` when there is none or it cannot be read. */
export function readPref<T>(key: string, fallback: T): T {
  try {
    const text = globalThis.localStorage?.getItem(PREFIX + key);
    return text === null || text === undefined ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
}

/** Stores `value` as JSON under `key`; a full or disabled storage only loses the preference. */
export function writePref(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Preferences are a convenience: the view works without them.
  }
}
