import { orderAll, sortValue, type IndexGeneration, type RecordRef } from '../../../shared/statistics-index';
import type { Condition } from '../../store/conditions';
import type { ServiceDb } from '../../store/database';
import { indexConditions } from './index-conditions';
import { NULL_AS, PIT_TTL_MS, type SearchAfterBatch, type SortTerm } from '../queries/point-in-time';
import { storedRowsJson } from '../queries/render-rows';
import { statisticsIndexOf } from './statistics-index';
import { heldBytes, KeptOrders, MIN_PINNED_BYTES, oldestToDrop, type KeptOrder } from './pit-memory';

/** A pit's view: the index generation it opened on, and when it was last used. */
interface PitView {
  generation: IndexGeneration;
  lastUsedMs: number;
}

/**
 * Pits read from the index at once; past this, or past the bytes their older generations hold
 * (pit-memory.ts, `pinnedBytes`), the oldest falls back to SQLite.
 */
const MAX_VIEWS = 256;

const views = new WeakMap<ServiceDb, Map<string, PitView>>();
/** Sorted matches kept (per pit, conditions and sort): a bulk download walks one of them. */
const orders = new WeakMap<ServiceDb, KeptOrders>();

/** What the SQL search-after checked, for the index to answer. */
export interface PitSearch {
  pitId: string;
  isNew: boolean;
  size: number;
  terms: readonly SortTerm[];
  cursor: readonly (string | number)[] | null;
  conditions: Condition[];
  /** The cursor as the client sent it, given back when a batch is empty. */
  searchAfter?: unknown[] | undefined;
}

/**
 * A search-after batch from the columnar index, or null when the index does not hold the pit's
 * generation (a pit opened before a restart, or one pushed out by newer ones). A new pit pins
 * the current index generation; later batches read that generation even after a recompute, as
 * the SQL rows of the pit's generation would (docs/statistics.md, "The columnar index"). The
 * pit's matches are sorted once; each batch is a binary search for the cursor.
 */
export function searchAfterInIndex(db: ServiceDb, search: PitSearch, nowMs: number): SearchAfterBatch | null {
  const pits = viewsOf(db, nowMs);
  let view = pits.get(search.pitId);
  if (search.isNew) {
    view = { generation: statisticsIndexOf(db).current(), lastUsedMs: nowMs };
    pits.set(search.pitId, view);
    if (pits.size > MAX_VIEWS) pits.delete(pits.keys().next().value as string);
    dropOldestPinned(pits, view.generation);
  }
  if (!view) return null;
  view.lastUsedMs = nowMs;
  const conditions = indexConditions(search.conditions, 'queries');
  const sort = search.terms.map((t) => ({ field: t.field, desc: t.desc }));
  const refs = sortedMatches(
    db,
    `${search.pitId}|${JSON.stringify(conditions)}|${JSON.stringify(sort)}`,
    () => orderAll(view.generation.all(), conditions, sort),
  );
  const start = search.cursor ? firstAfter(refs, search.terms, search.cursor) : 0;
  const batch = refs.slice(start, start + search.size);
  const last = batch.at(-1);
  return {
    rows: storedRowsJson(db, batch),
    meta: {
      total: refs.length,
      totalPages: Math.ceil(refs.length / search.size),
      pitId: search.pitId,
      searchAfter: last ? search.terms.map((t) => cursorValue(last, t.field)) : (search.searchAfter ?? []),
    },
  };
}

/** The pits' views of `db`, without the ones whose pit has expired. */
function viewsOf(db: ServiceDb, nowMs: number): Map<string, PitView> {
  let pits = views.get(db);
  if (!pits) views.set(db, (pits = new Map()));
  for (const [id, view] of pits) if (view.lastUsedMs + PIT_TTL_MS <= nowMs) pits.delete(id);
  return pits;
}

/**
 * Drops the pits opened first (never the newest) while the older generations they pin hold more
 * than the current generation, or MIN_PINNED_BYTES when that is more. A dropped pit keeps
 * working: its next batch is read from SQLite at its generation.
 */
function dropOldestPinned(pits: Map<string, PitView>, current: IndexGeneration): void {
  if (pits.size < 2) return;
  const bound = Math.max(MIN_PINNED_BYTES, heldBytes(current));
  const ids = [...pits.keys()];
  const drop = oldestToDrop(
    ids.map((id) => (pits.get(id) as PitView).generation),
    current,
    bound,
  );
  for (const id of ids.slice(0, drop)) pits.delete(id);
}

function sortedMatches(db: ServiceDb, key: string, sort: () => RecordRef[]): KeptOrder {
  let kept = orders.get(db);
  if (!kept) orders.set(db, (kept = new KeptOrders()));
  return kept.get(key, sort);
}

/** A record's value of a sort field as the cursor carries it: a missing number is NULL_AS. */
function cursorValue(ref: RecordRef, field: string): string | number {
  const value = sortValue(ref, field);
  return value === -Infinity ? NULL_AS : value;
}

/** The first place in `refs` (sorted by `terms`) strictly after the cursor. */
function firstAfter(
  refs: KeptOrder,
  terms: readonly SortTerm[],
  cursor: readonly (string | number)[],
): number {
  const after = (ref: RecordRef): boolean => {
    for (let i = 0; i < terms.length; i += 1) {
      const term = terms[i] as SortTerm;
      const x = cursorValue(ref, term.field);
      const y = cursor[i] as string | number;
      if (x === y) continue;
      return x > y !== term.desc;
    }
    return false;
  };
  let lo = 0;
  let hi = refs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(refs.at(mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
