// What the command palette offers for a query: pages by fuzzy name, traders by address. Pure,
// so the matching is unit-tested.

/** A trader or wallet address as the service takes it (shared/api/common.ts addressSchema). */
export const isTraderAddress = (text: string): boolean =>
  /^(?:0x[0-9a-fA-F]{40}|(?!0x)[A-Za-z0-9]{20,100})$/.test(text.trim());

/**
 * How well `query` matches `text` as a subsequence (letters in order, gaps allowed), or null
 * when it does not: `ldb` matches "Leaderboard". Higher is better: a match at the start, at word
 * starts and in one run scores more.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const t = text.toLowerCase();
  let score = 0;
  let at = 0;
  let previous = -2;
  for (const ch of q) {
    if (ch === ' ') continue;
    const found = t.indexOf(ch, at);
    if (found < 0) return null;
    if (found === 0) score += 8;
    else if (/[\s/_-]/.test(t[found - 1] ?? '')) score += 5;
    if (found === previous + 1) score += 3;
    score += 1;
    previous = found;
    at = found + 1;
  }
  // Shorter texts with the same letters are closer matches.
  return score - t.length * 0.05;
}

export interface PaletteItem {
  id: string;
  kind: 'page' | 'trader' | 'command';
  label: string;
  hint: string;
  /** The keyboard shortcut that does the same (`G L`), shown beside the item. */
  shortcut?: string;
}

/** A page, or a command (a keyboard shortcut's action, by name). */
export interface PalettePage {
  id: string;
  label: string;
  purpose: string;
  kind?: 'page' | 'command';
  shortcut?: string;
}

export interface PaletteTrader {
  protocol: string;
  account: string;
}

/** Traders by id in palette items: `trader:<protocol>:<account>`. */
const traderItemId = (t: PaletteTrader): string => `trader:${t.protocol}:${t.account}`;

/** Parses an item id back into what it opens or runs. */
export function parseItemId(id: string): { page: string } | { command: string } | PaletteTrader | null {
  if (id.startsWith('page:')) return { page: id.slice(5) };
  if (id.startsWith('command:')) return { command: id.slice(8) };
  const match = /^trader:([^:]+):(.+)$/.exec(id);
  return match?.[1] && match[2] ? { protocol: match[1], account: match[2] } : null;
}

/**
 * The palette's items for `query`: a typed address offers that trader on each protocol (the
 * last used first); otherwise pages and recent traders matching the query, best first.
 */
export function paletteItems(
  query: string,
  pages: readonly PalettePage[],
  recent: readonly PaletteTrader[],
  protocols: readonly string[],
  limit = 12,
): PaletteItem[] {
  const q = query.trim();
  if (isTraderAddress(q)) {
    const first = recent[0]?.protocol;
    const ordered =
      first && protocols.includes(first) ? [first, ...protocols.filter((p) => p !== first)] : protocols;
    return ordered.slice(0, limit).map((protocol) => ({
      id: traderItemId({ protocol, account: q }),
      kind: 'trader',
      label: `Open trader ${q.slice(0, 6)}…${q.slice(-4)}`,
      hint: `on ${protocol}`,
    }));
  }
  const scored: { item: PaletteItem; score: number }[] = [];
  for (const p of pages) {
    const score = fuzzyScore(q, p.label);
    if (score !== null)
      scored.push({
        item: {
          id: `${p.kind ?? 'page'}:${p.id}`,
          kind: p.kind ?? 'page',
          label: p.label,
          hint: p.purpose,
          ...(p.shortcut ? { shortcut: p.shortcut } : {}),
        },
        score: score + 1,
      });
  }
  for (const t of recent) {
    const score = q === '' ? 0 : (fuzzyScore(q, t.account) ?? fuzzyScore(q, t.protocol));
    if (score !== null)
      scored.push({
        item: {
          id: traderItemId(t),
          kind: 'trader',
          label: `${t.account.slice(0, 6)}…${t.account.slice(-4)}`,
          hint: `recent trader · ${t.protocol}`,
        },
        score,
      });
  }
  // Stable order: with no query, pages in rail order then recent traders.
  return scored
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => (q === '' ? a.i - b.i : b.score - a.score || a.i - b.i))
    .slice(0, limit)
    .map((s) => s.item);
}
