import type { PageMeta, SortType } from '../../shared/api/common';

/** `{limit, offset, total, totalPages = ceil(total / limit)}` (docs/api.md, Pagination). */
export function pageMeta(limit: number, offset: number, total: number): PageMeta {
  return { limit, offset, total, totalPages: Math.ceil(total / limit) };
}

/** ORDER BY a whitelisted column, then unique tie-breakers in the same direction so that pages never overlap. */
export function orderBy(column: string, sortType: SortType, ...tieBreakers: string[]): string {
  const direction = sortType === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${[column, ...tieBreakers].map((c) => `${c} ${direction}`).join(', ')}`;
}

/** A WHERE clause under construction: fragments joined by AND, with their parameters. */
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  /** Adds `fragment` with its parameters. */
  add(fragment: string, ...params: unknown[]): this {
    this.parts.push(fragment);
    this.params.push(...params);
    return this;
  }

  /** Adds `column IN (...)` (inMatch). */
  addIn(column: string, values: readonly unknown[]): this {
    const match = inMatch(column, values);
    return this.add(match.sql, ...match.params);
  }

  /** Adds an address filter (addressMatch). */
  addAddresses(column: string, addresses: readonly string[]): this {
    const match = addressMatch(column, addresses);
    return this.add(match.sql, ...match.params);
  }

  /** `WHERE ...` (or `WHERE 1` when nothing was added). */
  toSql(): string {
    return `WHERE ${this.parts.length > 0 ? this.parts.map((p) => `(${p})`).join(' AND ') : '1'}`;
  }
}

/**
 * `column` is one of `addresses`: 0x addresses compare case-insensitively (checksums vary), other
 * chains' addresses exactly (base58 is case-sensitive). An empty list matches nothing.
 */
export function addressMatch(
  column: string,
  addresses: readonly string[],
): { sql: string; params: string[] } {
  if (addresses.length === 0) return { sql: '0', params: [] };
  const isEvm = (a: string) => a.startsWith('0x');
  return {
    sql: addresses.map((a) => (isEvm(a) ? `lower(${column}) = ?` : `${column} = ?`)).join(' OR '),
    params: addresses.map((a) => (isEvm(a) ? a.toLowerCase() : a)),
  };
}

/** `column IN (...)`; an empty list matches nothing, as a filter on nothing should. */
export function inMatch(column: string, values: readonly unknown[]): { sql: string; params: unknown[] } {
  if (values.length === 0) return { sql: '0', params: [] };
  return { sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: [...values] };
}
