import { prepareCached } from '../../../node/sqlite';
import { randomBytes } from 'node:crypto';
import type { ServiceDb } from '../../store/database';
import { ServiceError } from '../../http/errors';
import { coerce, compileConditions, fieldSpec, type Condition } from '../../store/conditions';
import { statisticFields, type FieldSpec } from '../../store/fields';
import { VISIBLE_AT_GENERATION, currentGeneration } from '../store/statistic-rows';
import { deleteRetiredStatisticJson, pageWithStoredJson } from '../store/stored-json';
import { searchAfterInIndex } from '../index/pit-index';

/** A point in time lives 5 minutes after its last use (docs/api.md). */
export const PIT_TTL_MS = 5 * 60_000;
/** Nulls sort as the lowest number so that keyset comparisons stay total. */
export const NULL_AS = -1.7976931348623157e308;

export interface SearchAfterInput {
  size: number;
  sort: { field: string; direction: 'asc' | 'desc' }[];
  pitId?: string | undefined;
  searchAfter?: unknown[] | undefined;
  conditions: Condition[];
}

/** A sort term of search-after: the field, its SQL and its spec; the last one is always `id`. */
export interface SortTerm {
  field: string;
  expr: string;
  spec: FieldSpec;
  desc: boolean;
}

/** One batch: each record's JSON as UTF-8 bytes (see `pageJsonBuffer`), and the next cursor. */
export interface SearchAfterBatch {
  rows: Uint8Array[];
  meta: { total: number; totalPages: number; pitId: string; searchAfter: unknown[] };
}

/**
 * Search-after over a point in time: the first call pins the statistics generation it saw,
 * later calls read that generation even after a recompute, and keyset paging on the sort plus
 * `id` never overlaps or skips.
 *
 * Bulk downloads walk whole populations through here (docs/core-cache.md), so each batch must
 * cost little: each record's JSON was stored when it was written (stored-json.ts, equal to
 * `statisticToWire`), the route copies them once into the answer's bytes, and the total is
 * counted once per pit and conditions, since what a pit sees never changes (docs/service.md,
 * search-after).
 */
export function searchAfter(db: ServiceDb, input: SearchAfterInput, nowMs: number): SearchAfterBatch {
  expireOldPits(db, nowMs);
  const { pitId, generation } = input.pitId ? usePit(db, input.pitId, nowMs) : openPit(db, nowMs);
  const terms = sortTerms(input.sort);
  const cursor = input.searchAfter ? cursorValues(terms, input.searchAfter) : null;
  // The columnar index answers whenever it holds the pit's generation (docs/statistics.md);
  // a pit opened before the service started is read from SQLite as before.
  const fromIndex = searchAfterInIndex(db, { ...input, pitId, terms, cursor, isNew: !input.pitId }, nowMs);
  if (fromIndex) return fromIndex;
  const where = compileConditions(statisticFields, input.conditions, 'queries');
  const filter = `WHERE ${VISIBLE_AT_GENERATION} AND ${where.sql}`;
  const params: unknown[] = [generation, generation, ...where.params];
  const total = pitTotal(
    db,
    `${pitId}|${where.sql}|${JSON.stringify(where.params)}`,
    () => prepareCached(db, `SELECT COUNT(*) FROM statistics ${filter}`, 'pluck').get(...params) as number,
  );
  const after = input.searchAfter ? keyset(terms, input.searchAfter) : { sql: '1', params: [] };
  // The page's keys and sort values (the cursor), then each record's stored JSON. Raw rows: only
  // this module prepares this SQL text, so setting the cached statement's mode changes no other
  // caller's statement.
  const columns = terms.map((_, i) => `s${i}`);
  const order = (names: readonly string[]) =>
    terms.map((t, i) => `${names[i]} ${t.desc ? 'DESC' : 'ASC'}`).join(', ');
  const page = `SELECT protocol, type, id, gen_from, ${terms.map((t, i) => `${t.expr} AS s${i}`).join(', ')}
    FROM statistics ${filter} AND (${after.sql}) ORDER BY ${order(terms.map((t) => t.expr))} LIMIT ?`;
  const rows = prepareCached(db, pageWithStoredJson(page, columns, order(columns)))
    .raw(true)
    .all(...params, ...after.params, input.size) as [Uint8Array, ...unknown[]][];
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => row[0]),
    meta: {
      total,
      totalPages: Math.ceil(total / input.size),
      pitId,
      searchAfter: last ? last.slice(1) : (input.searchAfter ?? []),
    },
  };
}

const PIT_TOTALS_MAX = 1_000;
const pitTotals = new WeakMap<ServiceDb, Map<string, number>>();

/** The count of a pit's matches, computed at its first batch (a pit's snapshot never changes). */
function pitTotal(db: ServiceDb, key: string, count: () => number): number {
  let totals = pitTotals.get(db);
  if (!totals) pitTotals.set(db, (totals = new Map()));
  const known = totals.get(key);
  if (known !== undefined) return known;
  const total = count();
  totals.set(key, total);
  if (totals.size > PIT_TOTALS_MAX) totals.delete(totals.keys().next().value as string);
  return total;
}

function sortTerms(sort: SearchAfterInput['sort']): SortTerm[] {
  const terms = sort.map((s, i) => {
    const spec = fieldSpec(statisticFields, s.field, `sort[${i}]`);
    const expr = spec.type === 'number' ? `IFNULL(${spec.sql}, ${NULL_AS})` : spec.sql;
    return { field: s.field, expr, spec, desc: s.direction === 'desc' };
  });
  if (!sort.some((s) => s.field === 'id'))
    terms.push({ field: 'id', expr: 'id', spec: statisticFields.id!, desc: false });
  return terms;
}

/** The cursor's values checked and coerced: one per sort term, a null as the lowest number. */
function cursorValues(terms: SortTerm[], values: unknown[]): (string | number)[] {
  if (values.length !== terms.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `searchAfter must have ${terms.length} values: one per sort field, then id`,
    );
  }
  return terms.map((t, i) =>
    values[i] === null ? NULL_AS : (coerce(t.spec, values[i], `searchAfter[${i}]`) as string | number),
  );
}

/** `(a, b, id) after (va, vb, vid)` for mixed directions, as an OR of prefixes. */
function keyset(terms: SortTerm[], values: unknown[]): { sql: string; params: unknown[] } {
  const coerced = cursorValues(terms, values);
  const params: unknown[] = [];
  const ors = terms.map((term, i) => {
    const equal = terms.slice(0, i).map((t, j) => {
      params.push(coerced[j]);
      return `${t.expr} = ?`;
    });
    params.push(coerced[i]);
    return [...equal, `${term.expr} ${term.desc ? '<' : '>'} ?`].join(' AND ');
  });
  return { sql: ors.map((o) => `(${o})`).join(' OR '), params };
}

function openPit(db: ServiceDb, nowMs: number): { pitId: string; generation: number } {
  const pitId = randomBytes(16).toString('base64url');
  const generation = currentGeneration(db);
  prepareCached(db, 'INSERT INTO pits (id, generation, last_used_ms) VALUES (?, ?, ?)').run(
    pitId,
    generation,
    nowMs,
  );
  return { pitId, generation };
}

function usePit(db: ServiceDb, pitId: string, nowMs: number): { pitId: string; generation: number } {
  const pit = prepareCached(db, 'SELECT generation, last_used_ms FROM pits WHERE id = ?').get(pitId) as
    { generation: number; last_used_ms: number } | undefined;
  if (!pit || pit.last_used_ms + PIT_TTL_MS <= nowMs) {
    throw new ServiceError(
      'PIT_EXPIRED',
      'pitId is unknown or expired (a point in time lives 5 minutes after its last use); start again without pitId',
    );
  }
  prepareCached(db, 'UPDATE pits SET last_used_ms = ? WHERE id = ?').run(nowMs, pitId);
  return { pitId, generation: pit.generation };
}

/** Forgets expired pits and the statistic versions no live pit can see any more. */
export function expireOldPits(db: ServiceDb, nowMs: number): void {
  prepareCached(db, 'DELETE FROM pits WHERE last_used_ms + ? <= ?').run(PIT_TTL_MS, nowMs);
  const oldest = prepareCached(db, 'SELECT MIN(generation) AS g FROM pits').get() as { g: number | null };
  const keepFrom = Math.min(oldest.g ?? Infinity, currentGeneration(db));
  deleteRetiredStatisticJson(db, keepFrom);
  prepareCached(db, 'DELETE FROM statistics WHERE gen_to IS NOT NULL AND gen_to <= ?').run(keepFrom);
}
