import type { TokensList } from '@shared/ipc/contract';

export type TokenGroup = TokensList['groups'][number];
export type Token = TokenGroup['tokens'][number];

/** One protocol's section as shown: the tokens that pass the filter, and how many it has in all. */
export interface TokenGroupView {
  protocol: string;
  total: number;
  tokens: Token[];
}

const bySymbol = (a: Token, b: Token): number => a.symbol.localeCompare(b.symbol);

/**
 * Protocols in alphabetical order, tokens by symbol, keeping those whose symbol contains `query`
 * (case-insensitive). With a query, protocols without a match are left out.
 */
export function filterTokenGroups(groups: readonly TokenGroup[], query: string): TokenGroupView[] {
  const needle = query.trim().toLowerCase();
  return [...groups]
    .sort((a, b) => a.protocol.localeCompare(b.protocol))
    .map((group) => ({
      protocol: group.protocol,
      total: group.tokens.length,
      tokens: group.tokens
        .filter((t) => needle === '' || t.symbol.toLowerCase().includes(needle))
        .sort(bySymbol),
    }))
    .filter((view) => needle === '' || view.tokens.length > 0);
}

/** Splits `text` around the first case-insensitive occurrence of `query`, for highlighting. */
export function splitMatch(text: string, query: string): [before: string, match: string, after: string] {
  const needle = query.trim().toLowerCase();
  const at = needle === '' ? -1 : text.toLowerCase().indexOf(needle);
  if (at < 0) return [text, '', ''];
  return [text.slice(0, at), text.slice(at, at + needle.length), text.slice(at + needle.length)];
}
