/**
 * The order of leaderboard rows, the same whether they come from the service or from a downloaded
 * dataset: the sort field as SQLite orders it (the local service sorts in SQL: NULL below every
 * number, text by code point), then `id` ascending (docs/api.md: the service's tie-breaker), then
 * the protocol, so that rows of several protocols merge into one total order.
 */

/** A value as a leaderboard sorts it. */
export type SortValue = number | string | null;

/** One row's place in the order. */
export interface OrderKey {
  value: SortValue;
  id: string;
  protocol: string;
}

const TIME_FIELDS: ReadonlySet<string> = new Set(['lastTradeAt', 'statisticAt', 'createdAt']);

/** SQLite's order of two values of one field: NULL first, then numbers, then text. */
export function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Compares two rows for a sort direction, with the tie-breakers. */
export function compareKeys(a: OrderKey, b: OrderKey, direction: 'asc' | 'desc'): number {
  const byValue = compareValues(a.value, b.value);
  if (byValue !== 0) return direction === 'desc' ? -byValue : byValue;
  return compareText(a.id, b.id) || compareText(a.protocol, b.protocol);
}

/** The sort value of `field` in a row as the service answered it (`ranking.<key>` included). */
export function rowSortValue(row: Record<string, unknown>, field: string): SortValue {
  let value: unknown;
  if (field.startsWith('ranking.')) {
    const ranking = row.ranking as Record<string, unknown> | undefined;
    value = ranking?.[field.slice('ranking.'.length)];
  } else value = row[field];
  if (value === undefined || value === null) return null;
  if (TIME_FIELDS.has(field) && typeof value === 'string') return Date.parse(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

/**
 * Merges lists that are each already in order into the first `take` rows of their union.
 * A k-way merge: `lists` are few (one per protocol) and short (offset + limit).
 */
export function mergeOrdered<T>(
  lists: readonly (readonly T[])[],
  keyOf: (item: T) => OrderKey,
  direction: 'asc' | 'desc',
  take: number,
): T[] {
  const keyed = lists.map((list) => list.map((item) => ({ item, key: keyOf(item) })));
  const at = keyed.map(() => 0);
  const out: T[] = [];
  while (out.length < take) {
    let best = -1;
    for (let l = 0; l < keyed.length; l += 1) {
      const candidate = keyed[l]![at[l]!];
      if (!candidate) continue;
      if (best < 0 || compareKeys(candidate.key, keyed[best]![at[best]!]!.key, direction) < 0) best = l;
    }
    if (best < 0) break;
    out.push(keyed[best]![at[best]!]!.item);
    at[best] = at[best]! + 1;
  }
  return out;
}
