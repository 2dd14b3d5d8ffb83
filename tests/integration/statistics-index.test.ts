// The columnar statistics index (src/shared/statistics-index, src/service/statistics) against
// SQLite: random filters, sorts, pages and windows over populations full of ties and missing
// values must give the same records in the same order as the SQL the service ran before, and a
// search-after keeps reading its point in time across a recompute (docs/statistics.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANKING_KEYS, type FullRanking } from '../../src/shared/api/statistics';
import type { Window } from '../../src/shared/api/common';
import { searchPopulations } from '../../src/shared/statistics-index';
import { openServiceDatabase } from '../../src/service/store/database';
import type { ServiceDb } from '../../src/service/store/database';
import { compileConditions, compileSort, type Condition } from '../../src/service/store/conditions';
import { statisticFields } from '../../src/service/store/fields';
import { CURRENT_ROWS, VISIBLE_AT_GENERATION } from '../../src/service/statistics/store/statistic-rows';
import { statisticJsonSql } from '../../src/service/statistics/store/json-rows';
import { filterStatistics } from '../../src/service/statistics/queries/statistic-filters';
import { indexConditions, indexSort } from '../../src/service/statistics/index/index-conditions';
import {
  COLUMN_BUDGET_BYTES,
  GEN_FROM_COLUMN,
  JSON_ROWID_COLUMN,
  statisticsIndexOf,
} from '../../src/service/statistics/index/statistics-index';
import { PIT_TTL_MS, searchAfter } from '../../src/service/statistics/queries/point-in-time';
import {
  STATISTIC_NUMERIC_COLUMNS,
  writeGeneration,
  type RecordToStore,
} from '../../src/service/statistics/store/writer';
import type { StatisticValues } from '../../src/service/statistics/formulas/statistics';
import { replacePopulation } from '../support/statistics-world';
import { storeAllStatisticJson } from '../../src/service/statistics/store/stored-json';
import { compileSearch, runSearch } from '../../src/service/graphql/search';
import { statisticsDataSet } from '../../src/service/graphql/datasets';
import type { GraphqlSearchBody } from '../../src/shared/api/graphql';

const POPULATIONS = [
  { protocol: 'PROP_A', window: 'D7', count: 150, seed: 1 },
  { protocol: 'PROP_A', window: 'D30', count: 120, seed: 2 },
  { protocol: 'PROP_B', window: 'D7', count: 90, seed: 3 },
] as const;
const WINDOWS = ['D7', 'D15', 'D30', 'D60', 'FULL'];
/** The values replacePopulation draws from, so that bounds often meet ties exactly. */
const POOL = [-20, -2.5, 0, 1, 2, 3.25, 4, 7, 50, 1234.5];
const NUMERIC_FIELDS = [
  'pnl',
  'totalTrade',
  'winRate',
  'realisedMaxDrawdown',
  'minDuration',
  'maxDuration',
  'sharpeRatio',
  'avgLeverage',
  'unrealisedPnl',
];
const RANKING_FIELDS = ['ranking.pnl', 'ranking.winRate', 'ranking.avgDuration', 'ranking.sharpeRatio'];
const DAY = 86_400_000;

let dir: string;
let db: ServiceDb;
let accounts: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-statistics-index-'));
  db = openServiceDatabase(join(dir, 'service.db'));
  for (const p of POPULATIONS) replacePopulation(db, p.protocol, p.window as Window, p.count, p.seed);
  accounts = db.prepare('SELECT account FROM statistics LIMIT 40').pluck().all() as string[];
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const numberValue = fc.oneof(fc.constantFrom(...POOL), fc.double({ min: -100, max: 2000, noNaN: true }));
const rankingValue = fc.oneof(fc.constantFrom(0, 25, 50, 100), fc.double({ min: 0, max: 100, noNaN: true }));

/** One field condition with one or two parts, over fields where ties and nulls are common. */
const fieldCondition: fc.Arbitrary<Condition> = fc
  .oneof(
    fc.tuple(fc.constantFrom(...NUMERIC_FIELDS), numberValue, numberValue, fc.integer({ min: 0, max: 9 })),
    fc.tuple(fc.constantFrom(...RANKING_FIELDS), rankingValue, rankingValue, fc.integer({ min: 0, max: 9 })),
  )
  .map(([field, a, b, shape]): Condition => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    switch (shape) {
      case 0:
        return { field, gte: lo, lte: hi };
      case 1:
        return { field, gt: lo, lt: hi };
      case 2:
        return { field, match: a };
      case 3:
        return { field, match: null };
      case 4:
        return { field, in: [a, b, POOL[2]] };
      case 5:
        return { field, nin: [a, POOL[3]] };
      case 6:
        return { field, exists: a > 0 };
      case 7:
        return { field, gte: a };
      case 8:
        return { field, nin: [a, null] };
      default:
        return { field, lt: b };
    }
  });
const textCondition: fc.Arbitrary<Condition> = fc.oneof(
  fc.constantFrom(...WINDOWS).map((w): Condition => ({ field: 'type', match: w })),
  fc.subarray(WINDOWS).map((ws): Condition => ({ field: 'type', in: ws })),
  fc
    .integer({ min: 0, max: 39 })
    .map((i): Condition => ({ field: 'account', match: accounts[i % accounts.length] })),
  fc
    .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength: 2 })
    .map((h): Condition => ({ field: 'id', gte: h })),
  fc.boolean().map((b): Condition => ({ field: 'isOpenPosition', match: b })),
  fc
    .integer({ min: 0, max: 4 })
    .map((k): Condition => ({ field: 'lastTradeAt', lte: 1_700_000_000_000 + k * DAY })),
);
const leaf = fc.oneof({ weight: 3, arbitrary: fieldCondition }, { weight: 1, arbitrary: textCondition });
const condition: fc.Arbitrary<Condition> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { minLength: 1, maxLength: 3 }).map((or): Condition => ({ or })) },
);
const sortField = fc.constantFrom(
  ...NUMERIC_FIELDS,
  ...RANKING_FIELDS,
  'id',
  'account',
  'type',
  'lastTradeAt',
);
const sortTerm = fc.record({ field: sortField, direction: fc.constantFrom('asc' as const, 'desc' as const) });

/** The SQL the service ran before the index: the reference. */
function sqlPage(
  protocol: string | null,
  conditions: Condition[],
  sorts: { field: string; direction: 'asc' | 'desc' }[],
  limit: number,
  offset: number,
): { keys: string[]; total: number; json: string[] } {
  const where = compileConditions(statisticFields, conditions, 'c');
  const filter = `FROM statistics WHERE ${CURRENT_ROWS} ${protocol ? 'AND protocol = ?' : ''} AND ${where.sql}`;
  const params = [...(protocol ? [protocol] : []), ...where.params];
  const order = `${compileSort(statisticFields, sorts, 's')}, protocol ASC, type ASC`;
  const total = db
    .prepare(`SELECT COUNT(*) ${filter}`)
    .pluck()
    .get(...params) as number;
  const rows = db
    .prepare(
      `SELECT protocol || '|' || type || '|' || id AS k, ${statisticJsonSql(true)} AS j ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset) as { k: string; j: string }[];
  return { keys: rows.map((r) => r.k), total, json: rows.map((r) => r.j) };
}

/** Random REST filters answer as the SQL did. */
const restFilters = () =>
  fc.property(
    fc.constantFrom('PROP_A', 'PROP_B'),
    fc.array(condition, { maxLength: 4 }),
    sortTerm,
    fc.integer({ min: 1, max: 60 }),
    fc.integer({ min: 0, max: 300 }),
    (protocol, conditions, sort, limit, offset) => {
      const expected = sqlPage(protocol, conditions, [sort], limit, offset);
      const page = filterStatistics(db, {
        protocol,
        conditions: [{ from: 'ranges', list: conditions }],
        sort,
        limit,
        offset,
        withRanking: true,
      });
      expect(page.total).toBe(expected.total);
      // Parsed: the ranking is written by JavaScript now (100, where SQLite wrote 100.0).
      expect(page.rows.map(parse)).toEqual(expected.json.map(parse));
    },
  );

/** Random GraphQL-shaped searches over every population answer as the SQL did. */
const graphqlSearches = () =>
  fc.property(
    fc.array(condition, { maxLength: 4 }),
    fc.array(sortTerm, { minLength: 0, maxLength: 3 }),
    fc.integer({ min: 1, max: 80 }),
    fc.integer({ min: 0, max: 400 }),
    (conditions, sorts, limit, offset) => {
      const expected = sqlPage(null, conditions, sorts, limit, offset);
      const page = searchPopulations(statisticsIndexOf(db).current().all(), {
        conditions: indexConditions(conditions, 'c'),
        sort: indexSort(sorts, 's'),
        offset,
        limit,
      });
      expect(page.total).toBe(expected.total);
      expect(page.refs.map((r) => `${r.population.key}|${r.population.tie(r.row)}`)).toEqual(expected.keys);
    },
  );

describe('the statistics index', () => {
  it('answers the REST filters as SQLite did: the same rows, order and total', () => {
    fc.assert(restFilters(), { numRuns: 300 });
  });

  it('answers GraphQL-shaped searches over every population: several sorts, nested or', () => {
    fc.assert(graphqlSearches(), { numRuns: 300 });
  });

  it('answers searchPositionStatistic with the records and total its SQL gave', () => {
    fc.assert(
      fc.property(
        fc.array(condition, { maxLength: 3 }),
        fc.array(sortTerm, { maxLength: 2 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 300 }),
        (and, sorts, size, from) => {
          const request = {
            body: { filter: { and }, sorts, paging: { size, from } } as unknown as GraphqlSearchBody,
            implied: [],
          };
          const { count, page } = compileSearch(statisticsDataSet, request);
          const total = (db.prepare(count.sql).get(...count.params) as { n: number }).n;
          const keys = db.prepare(page.sql).all(...page.params) as {
            protocol: string;
            type: string;
            id: string;
          }[];
          const expected = keys.map((k) =>
            statisticsDataSet.toItem(
              db
                .prepare(
                  `SELECT * FROM statistics WHERE protocol = ? AND type = ? AND id = ? AND ${CURRENT_ROWS}`,
                )
                .get(k.protocol, k.type, k.id) as Record<string, unknown>,
            ),
          );
          const answer = runSearch(db, statisticsDataSet, request);
          expect(answer.meta).toEqual({
            total,
            limit: size,
            offset: from,
            totalPages: Math.ceil(total / size),
          });
          expect(answer.data).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a bad condition with the message the SQL compiler gives', () => {
    const bad: Condition[][] = [
      [{ field: 'nope', gte: 1 }],
      [{ field: 'pnl' }],
      [{ or: [] }],
      [{ field: 'pnl', gte: 'abc' }],
      [{ field: 'pnl', in: 5 as unknown as unknown[] }],
    ];
    for (const conditions of bad) {
      const sql = () => compileConditions(statisticFields, conditions, 'ranges');
      const index = () => indexConditions(conditions, 'ranges');
      expect(sql).toThrow();
      expect(index).toThrow(catchMessage(sql));
    }
  });

  it("sees writes at once: a recompute, then one trader's update, move the answers", () => {
    const before = sqlPage('PROP_B', [], [{ field: 'pnl', direction: 'desc' }], 20, 0);
    expect(filterStatistics(db, query('PROP_B')).rows.map(parse)).toEqual(before.json.map(parse));
    recompute(7, Date.now());
    const after = sqlPage('PROP_B', [], [{ field: 'pnl', direction: 'desc' }], 20, 0);
    expect(after.json).not.toEqual(before.json);
    expect(filterStatistics(db, query('PROP_B')).rows.map(parse)).toEqual(after.json.map(parse));
    // One trader's records, as the live market stores them: that trader now leads.
    const row = db
      .prepare(`SELECT * FROM statistics WHERE protocol = 'PROP_B' AND ${CURRENT_ROWS} ORDER BY id LIMIT 1`)
      .get() as Record<string, unknown>;
    const record = recordOf(row, () => 0.5);
    (record.values as unknown as Record<string, number>).pnl = 1e9;
    writeGeneration(db, { protocol: 'PROP_B', account: row.account as string }, [record], Date.now());
    const moved = filterStatistics(db, query('PROP_B'));
    expect(moved.rows.map(parse)).toEqual(
      sqlPage('PROP_B', [], [{ field: 'pnl', direction: 'desc' }], 20, 0).json.map(parse),
    );
    expect((JSON.parse(moved.rows[0]!) as { id: string }).id).toBe(row.id);
  });

  it('takes in row writes, deletions and in-place percentile rewrites by patching populations', () => {
    const index = statisticsIndexOf(db);
    index.current();
    const before = { ...index.counts };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom('update', 'delete', 'insert', 'rerank'),
            pick: fc.nat(),
            value: fc.constantFrom(...POOL, null),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(condition, { maxLength: 2 }),
        sortTerm,
        (changes, conditions, sort) => {
          for (const change of changes) mutate(change.kind, change.pick, change.value);
          for (const protocol of ['PROP_A', 'PROP_B']) {
            const expected = sqlPage(protocol, conditions, [sort], 40, 0);
            const page = filterStatistics(db, {
              protocol,
              conditions: [{ from: 'ranges', list: conditions }],
              sort,
              limit: 40,
              offset: 0,
              withRanking: true,
            });
            expect(page.total).toBe(expected.total);
            expect(page.rows.map(parse)).toEqual(expected.json.map(parse));
          }
        },
      ),
      { numRuns: 60 },
    );
    // The changes went through patches and re-rankings, not only full reads.
    expect(index.counts.patches).toBeGreaterThan(before.patches);
    expect(index.counts.rankings).toBeGreaterThan(before.rankings);
  });

  it("finds a page's JSON by rowid, and by key when the JSON was written again", () => {
    const sorted = { field: 'pnl', direction: 'desc' as const };
    const expected = () => sqlPage('PROP_A', [], [sorted], 20, 0).json.map(parse);
    const page = () => filterStatistics(db, query('PROP_A')).rows.map(parse);
    expect(page()).toEqual(expected());
    // Written again on the service's connection (OR REPLACE: new rowids): the index reads the
    // records again and holds their new rowids.
    const index = statisticsIndexOf(db);
    const before = { ...index.counts };
    storeAllStatisticJson(db);
    expect(page()).toEqual(expected());
    expect(index.counts.loads + index.counts.patches).toBeGreaterThan(before.loads + before.patches);
    // Written again through another connection, which the index does not see: the rowids it holds
    // find nothing, and the page is read by key.
    const other = new Database(join(dir, 'service.db'));
    other
      .prepare(
        `INSERT OR REPLACE INTO statistic_json (protocol, type, id, gen_from, json)
         SELECT protocol, type, id, gen_from, json FROM statistic_json WHERE protocol = 'PROP_A'`,
      )
      .run();
    other.close();
    expect(page()).toEqual(expected());
  });

  it('keeps a search-after on its point in time across a recompute between two pages', () => {
    fc.assert(searchAfterAcrossRecompute(1_800_000_000_000), { numRuns: 40 });
  });
});

describe('the budget of columns held', () => {
  // A few columns of these populations (90–150 records) at a time: columns and permutations are
  // released and read back between almost every two queries.
  const LIMIT = 6 * 1024;
  let released = 0;
  beforeAll(() => {
    // The recomputes above dropped a tenth of the records each: the populations afresh.
    for (const p of POPULATIONS) replacePopulation(db, p.protocol, p.window as Window, p.count, p.seed + 100);
    const { budget } = statisticsIndexOf(db);
    budget.limitBytes = LIMIT;
    released = budget.released;
  });
  afterAll(() => {
    statisticsIndexOf(db).budget.limitBytes = COLUMN_BUDGET_BYTES;
  });

  /** After each run the held bytes are within the budget once the next query begins. */
  const withinBudget = () => {
    const { budget } = statisticsIndexOf(db);
    budget.beginQuery();
    expect(budget.heldBytes).toBeLessThanOrEqual(LIMIT);
    // What the current populations really hold of it (the budget also counts older generations').
    let held = 0;
    for (const p of statisticsIndexOf(db).current().all()) {
      held += p.bytesByKind().permutations;
      for (const [field, column] of p.heldNumbers)
        if (field !== GEN_FROM_COLUMN && field !== JSON_ROWID_COLUMN && !field.startsWith('ranking.'))
          held += column.byteLength;
    }
    expect(held).toBeLessThanOrEqual(LIMIT);
  };

  it('answers REST filters as SQLite does while columns are released and read back', () => {
    fc.assert(restFilters().afterEach(withinBudget), { numRuns: 150 });
    expect(statisticsIndexOf(db).budget.released).toBeGreaterThan(released);
  });

  it('answers GraphQL-shaped searches as SQLite does while columns are released and read back', () => {
    fc.assert(graphqlSearches().afterEach(withinBudget), { numRuns: 150 });
  });

  it('keeps a search-after on its old generation, its columns released between batches', () => {
    const before = statisticsIndexOf(db).budget.released;
    // Between two batches, filters on the current populations name other fields: the budget
    // releases the point in time's columns, which its next batch reads back from its generation.
    let turn = 0;
    const others = () => {
      const field = NUMERIC_FIELDS[(turn += 1) % NUMERIC_FIELDS.length]!;
      filterStatistics(db, { ...query('PROP_A'), sort: { field, direction: 'asc' } });
      filterStatistics(db, { ...query('PROP_B'), sort: { field: 'ranking.pnl', direction: 'desc' } });
    };
    fc.assert(searchAfterAcrossRecompute(1_850_000_000_000, others), { numRuns: 30 });
    expect(statisticsIndexOf(db).budget.released).toBeGreaterThan(before);
  });
});

/** A search-after's batches read its point in time though a recompute comes after the first. */
function searchAfterAcrossRecompute(startMs: number, between: () => void = () => undefined) {
  let nowMs = startMs;
  return fc.property(
    // Not by account: the fixture's accounts are stored lower-case, and a cursor's address is
    // checksummed as the service stores real ones, so a cursor would not find its own row.
    fc.array(
      sortTerm.filter((t) => t.field !== 'account'),
      { minLength: 1, maxLength: 2 },
    ),
    fc.oneof(
      fc.constant<Condition[]>([]),
      fc.constantFrom(...WINDOWS).map((w): Condition[] => [{ field: 'type', match: w }]),
      fc.constantFrom('PROP_A', 'PROP_B').map((p): Condition[] => [{ field: 'protocol', match: p }]),
      fc.integer({ min: 0, max: 4 }).map((n): Condition[] => [{ field: 'totalTrade', match: n }]),
    ),
    fc.integer({ min: 1, max: 120 }),
    fc.integer({ min: 1, max: 1000 }),
    (sortTerms, conditions, size, seed) => {
      nowMs += PIT_TTL_MS + 1; // the previous run's pits expire
      const sort = sortTerms.filter((t, i) => sortTerms.findIndex((u) => u.field === t.field) === i);
      const input = {
        size,
        sort: sort.map((s) => ({ field: s.field, direction: s.direction })),
        conditions,
      };
      const first = searchAfter(db, input, nowMs);
      const generation = db
        .prepare('SELECT generation FROM pits WHERE id = ?')
        .pluck()
        .get(first.meta.pitId) as number;
      const expected = sqlAtGeneration(generation, conditions, sort);
      recompute(seed, nowMs);
      const ids = first.rows.map(idOf);
      let page = first;
      // Batches until an empty one, as a bulk download pages (its cursor is then the last).
      for (let guard = 0; page.rows.length > 0 && guard < 1000; guard += 1) {
        between();
        page = searchAfter(
          db,
          { ...input, pitId: first.meta.pitId, searchAfter: page.meta.searchAfter },
          nowMs,
        );
        expect(page.meta.total).toBe(expected.length);
        ids.push(...page.rows.map(idOf));
      }
      expect(first.meta.total).toBe(expected.length);
      expect(ids).toEqual(expected);
    },
  );
}

describe('columns made on demand', () => {
  it('holds a column once a query names it, and a point in time reads it at its own generation', () => {
    const index = statisticsIndexOf(db);
    const nowMs = 1_900_000_000_000;
    recompute(10, nowMs - 1); // every population read afresh: none holds more than it starts with
    const sortBy = (field: string) => [{ field, direction: 'desc' as const }];
    const first = searchAfter(db, { size: 30, sort: sortBy('pnl'), conditions: [] }, nowMs);
    const generation = db
      .prepare('SELECT generation FROM pits WHERE id = ?')
      .pluck()
      .get(first.meta.pitId) as number;
    const pinned = index.current().all()[0]!;
    expect(pinned.heldNumbers.has('pnl')).toBe(true);
    expect(pinned.heldNumbers.has('maxDuration')).toBe(false);
    expect(pinned.heldNumbers.has('ranking.pnl')).toBe(true);
    recompute(11, nowMs);
    // A column the pit's populations never read is read now, as it was at the pit's generation.
    const later = searchAfter(
      db,
      { size: 30, sort: sortBy('maxDuration'), conditions: [], pitId: first.meta.pitId },
      nowMs + 1,
    );
    expect(pinned.heldNumbers.has('maxDuration')).toBe(true);
    expect(later.rows.map(idOf)).toEqual(sqlAtGeneration(generation, [], sortBy('maxDuration')).slice(0, 30));
    // The current populations read it when a filter first names it, and answer as SQL does.
    const current = index.current().where((key) => key.startsWith('PROP_A|'));
    expect(current.length).toBeGreaterThan(0);
    expect(current.some((p) => p.heldNumbers.has('maxDuration'))).toBe(false);
    const expected = sqlPage('PROP_A', [], sortBy('maxDuration'), 25, 5);
    const page = filterStatistics(db, {
      ...query('PROP_A'),
      sort: sortBy('maxDuration')[0]!,
      limit: 25,
      offset: 5,
    });
    expect(current.every((p) => p.heldNumbers.has('maxDuration'))).toBe(true);
    expect(page.rows.map(parse)).toEqual(expected.json.map(parse));
  });
});

const query = (protocol: string) => ({
  protocol,
  conditions: [],
  sort: { field: 'pnl', direction: 'desc' as const },
  limit: 20,
  offset: 0,
  withRanking: true,
});

const parse = (text: string): unknown => JSON.parse(text);

const idOf = (row: Uint8Array): string =>
  (JSON.parse(Buffer.from(row).toString('utf8')) as { id: string }).id;

function catchMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}

/** Ids of the rows a point in time at `generation` sees, in search-after's SQL order. */
function sqlAtGeneration(
  generation: number,
  conditions: Condition[],
  sort: { field: string; direction: 'asc' | 'desc' }[],
): string[] {
  const where = compileConditions(statisticFields, conditions, 'queries');
  const terms = sort.map((s) => {
    const spec = statisticFields[s.field]!;
    const expr = spec.type === 'number' ? `IFNULL(${spec.sql}, -1.7976931348623157e308)` : spec.sql;
    return `${expr} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`;
  });
  if (!sort.some((s) => s.field === 'id')) terms.push('id ASC');
  return db
    .prepare(
      `SELECT id FROM statistics WHERE ${VISIBLE_AT_GENERATION} AND ${where.sql} ORDER BY ${terms.join(', ')}`,
    )
    .pluck()
    .all(generation, generation, ...where.params) as string[];
}

/**
 * A recompute as the engine stores it (writeGeneration, every record): some records dropped,
 * some numbers and rankings changed, drawn from the same small pool so ties stay common.
 */
function recompute(seed: number, nowMs: number): void {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = db.prepare(`SELECT * FROM statistics WHERE ${CURRENT_ROWS}`).all() as Record<
    string,
    unknown
  >[];
  const records: RecordToStore[] = [];
  for (const row of rows) if (next() >= 0.1) records.push(recordOf(row, next));
  writeGeneration(db, 'all', records, nowMs);
}

/** A stored row as the record the engine would store, some numbers and rankings redrawn. */
function recordOf(row: Record<string, unknown>, next: () => number): RecordToStore {
  const values: Record<string, unknown> = {};
  for (const c of STATISTIC_NUMERIC_COLUMNS) {
    const v = row[c] as number | null;
    values[c] = v !== null && next() < 0.3 ? POOL[Math.floor(next() * POOL.length)] : v;
  }
  values.indexTokens = JSON.parse(row.index_tokens as string) as string[];
  values.pairs = JSON.parse(row.pairs as string) as string[];
  values.isOpenPosition = row.is_open_position === 1;
  values.lastTradeAtTs = row.last_trade_at_ms;
  values.statisticAt = new Date(row.statistic_at_ms as number).toISOString();
  const ranking = Object.fromEntries(
    RANKING_KEYS.map((k) => [k, next() < 0.3 ? Math.round(next() * 4) * 25 : row[`rk_${k}`]]),
  ) as FullRanking;
  return {
    account: row.account as string,
    protocol: row.protocol as string,
    type: row.type as Window,
    values: values as unknown as StatisticValues,
    ranking,
  };
}

/** One change written straight into the store, as a writer (or another tool) might. */
function mutate(kind: string, pick: number, value: number | null): void {
  const rows = db
    .prepare(
      `SELECT protocol, type, id, gen_from FROM statistics WHERE ${CURRENT_ROWS} ORDER BY protocol, type, id`,
    )
    .all() as { protocol: string; type: string; id: string; gen_from: number }[];
  const row = rows[pick % rows.length]!;
  const key = [row.protocol, row.type, row.id, row.gen_from];
  const where = 'protocol = ? AND type = ? AND id = ? AND gen_from = ?';
  if (kind === 'update') {
    db.prepare(`UPDATE statistics SET "pnl" = ?, "winRate" = ? WHERE ${where}`).run(value, value, ...key);
    db.prepare(`DELETE FROM statistic_json WHERE ${where}`).run(...key);
    storeAllStatisticJson(db);
  } else if (kind === 'delete') {
    db.prepare(`DELETE FROM statistics WHERE ${where}`).run(...key);
    db.prepare(`DELETE FROM statistic_json WHERE ${where}`).run(...key);
  } else if (kind === 'insert') {
    const id = `${row.id.slice(0, 20)}${String(pick % 10000).padStart(4, '0')}`;
    const columns = (db.prepare("SELECT name FROM pragma_table_info('statistics')").pluck().all() as string[])
      .map((c) => `"${c}"`)
      .join(', ');
    db.prepare(
      `INSERT OR IGNORE INTO statistics (${columns}) SELECT ${columns.replace('"id"', '?').replace('"account"', '?')} FROM statistics WHERE ${where}`,
    ).run(id, `0x${id.padStart(40, '0')}`, ...key);
    storeAllStatisticJson(db);
  } else {
    db.prepare(
      `UPDATE statistics SET "rk_pnl" = ?, "rk_winRate" = ? WHERE protocol = ? AND type = ? AND ${CURRENT_ROWS}`,
    ).run(value ?? 0, value ?? 0, row.protocol, row.type);
  }
}
