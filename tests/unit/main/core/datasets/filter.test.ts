// Offline filtering and sorting of a downloaded dataset (src/main/core/datasets) checked
// against the service's own SQL: the same conditions compiled by the service's compiler and run
// by SQLite over the same records must give the same total and the same page, for every operator.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RangeCondition } from '../../../../../src/shared/api/common';
import { compileConditions, compileSort, type Condition } from '../../../../../src/service/store/conditions';
import type { FieldMap } from '../../../../../src/service/store/fields';
import { DatasetIndex } from '../../../../../src/main/core/datasets/dataset-index';
import { compareKeys, mergeOrdered } from '../../../../../src/main/core/datasets/leaderboard-order';
import { countStrictlyBelow, sortedIndexes } from '../../../../../src/shared/statistics-index/radix-sort';
import { CoreError } from '../../../../../src/main/core/errors';

interface Rec {
  id: string;
  account: string;
  pnl: number | null;
  winRate: number | null;
  totalTrade: number;
  lastTradeAtMs: number;
  isOpenPosition: boolean;
  rankPnl: number;
}

/** How the test table stores each field, in the service's terms. */
const fields: FieldMap = {
  id: { sql: 'id', type: 'string' },
  account: { sql: 'account', type: 'string' },
  type: { sql: 'type', type: 'string' },
  protocol: { sql: 'protocol', type: 'string' },
  pnl: { sql: 'pnl', type: 'number' },
  winRate: { sql: 'win_rate', type: 'number' },
  totalTrade: { sql: 'total_trade', type: 'number' },
  'ranking.pnl': { sql: 'rk_pnl', type: 'number' },
  lastTradeAt: { sql: 'last_ms', type: 'time' },
  isOpenPosition: { sql: 'is_open', type: 'boolean' },
};

const column = (records: Rec[], f: (r: Rec) => number | null | boolean) =>
  Float64Array.from(records, (r) => {
    const v = f(r);
    return v === null ? NaN : typeof v === 'boolean' ? (v ? 1 : 0) : v;
  });

/** A dataset index over `records` (given in id order), as the worker builds it. */
function indexOf(records: Rec[]): DatasetIndex {
  const columns: Record<string, Float64Array> = {
    pnl: column(records, (r) => r.pnl),
    winRate: column(records, (r) => r.winRate),
    totalTrade: column(records, (r) => r.totalTrade),
    lastTradeAt: column(records, (r) => r.lastTradeAtMs),
    isOpenPosition: column(records, (r) => r.isOpenPosition),
    'ranking.pnl': column(records, (r) => r.rankPnl),
  };
  return new DatasetIndex(
    records.length,
    { protocol: 'NOVA_ARB', type: 'D30' },
    {
      columns: (names) => names.map((n) => columns[n] as Float64Array),
      ranking: (name) => columns[name] as Float64Array,
      texts: (name) => records.map((r) => (name === 'ids' ? r.id : r.account)),
      seqs: () => Float64Array.from(records, (_, i) => i),
    },
  );
}

/** The same records in SQLite, queried with the service's compiled SQL. */
function oracleOf(records: Rec[]) {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id TEXT, account TEXT, type TEXT, protocol TEXT, pnl REAL, win_rate REAL,
    total_trade REAL, rk_pnl REAL, last_ms INTEGER, is_open INTEGER)`);
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  for (const r of records)
    insert.run(
      r.id,
      r.account,
      'D30',
      'NOVA_ARB',
      r.pnl,
      r.winRate,
      r.totalTrade,
      r.rankPnl,
      r.lastTradeAtMs,
      r.isOpenPosition ? 1 : 0,
    );
  return {
    query(
      ranges: RangeCondition[],
      sort: { field: string; direction: 'asc' | 'desc' },
      limit: number,
      offset: number,
    ) {
      const conditions: Condition[] = ranges.map(({ fieldName, ...bounds }) => ({
        field: fieldName,
        ...bounds,
      }));
      const where = compileConditions(fields, conditions, 'ranges');
      const total = db
        .prepare(`SELECT COUNT(*) FROM t WHERE ${where.sql}`)
        .pluck()
        .get(...where.params) as number;
      const ids = db
        .prepare(
          `SELECT id FROM t WHERE ${where.sql} ORDER BY ${compileSort(fields, [sort], 'sortBy')} LIMIT ? OFFSET ?`,
        )
        .pluck()
        .all(...where.params, limit, offset) as string[];
      return { total, ids };
    },
    close: () => db.close(),
  };
}

function local(
  index: DatasetIndex,
  records: Rec[],
  ranges: RangeCondition[],
  sort: { field: string; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
) {
  const total = index.count(ranges);
  return {
    total,
    ids: index.page(ranges, sort, offset, offset + limit).map((i) => (records[i] as Rec).id),
  };
}

// Few distinct values, so that ties and nulls are common.
const value = fc.oneof(fc.constant(null), fc.constantFrom(-5, -1.5, 0, 2, 2.5, 7, 100));
const recordArb = fc.record({
  account: fc.constantFrom('0xAa', '0xBb', '0xCc'),
  pnl: value,
  winRate: value,
  totalTrade: fc.integer({ min: 0, max: 4 }),
  lastTradeAtMs: fc.constantFrom(1_700_000_000_000, 1_700_000_500_000, 1_700_001_000_000),
  isOpenPosition: fc.boolean(),
  rankPnl: fc.constantFrom(0, 12.5, 50, 100),
});
const datasetArb = fc
  .array(recordArb, { minLength: 1, maxLength: 40 })
  .map((list) => list.map((r, i): Rec => ({ ...r, id: `id${String(i).padStart(3, '0')}` })));

const boundArb = fc.constantFrom(-5, -1.5, 0, 1, 2, 2.5, 7, 100, '2', '  7 ');
const rangeArb: fc.Arbitrary<RangeCondition> = fc
  .record(
    {
      fieldName: fc.constantFrom('pnl', 'winRate', 'totalTrade', 'ranking.pnl'),
      gte: boundArb,
      lte: boundArb,
      gt: boundArb,
      lt: boundArb,
      in: fc.array(fc.constantFrom(-5, 0, 2, 2.5, 7, '7'), { maxLength: 3 }),
      nin: fc.array(fc.constantFrom(-5, 0, 2, 2.5, 7), { maxLength: 3 }),
    },
    { requiredKeys: ['fieldName'] },
  )
  .filter((r) =>
    ['gte', 'lte', 'gt', 'lt', 'in', 'nin'].some((op) => op in r),
  ) as fc.Arbitrary<RangeCondition>;
/** Ranges on the texts (id, account) and on a field every record shares (type, protocol). */
const textBoundArb = fc.constantFrom('id005', 'id012', '0xAa', '0xBb', '0xC', 'D30', 'NOVA_ARB', 'D7');
const textRangeArb: fc.Arbitrary<RangeCondition> = fc
  .record(
    {
      fieldName: fc.constantFrom('id', 'account', 'type', 'protocol'),
      gte: textBoundArb,
      lt: textBoundArb,
      in: fc.array(textBoundArb, { maxLength: 3 }),
      nin: fc.array(textBoundArb, { maxLength: 3 }),
    },
    { requiredKeys: ['fieldName'] },
  )
  .filter((r) => ['gte', 'lt', 'in', 'nin'].some((op) => op in r)) as fc.Arbitrary<RangeCondition>;
const sortArb = fc.record({
  field: fc.constantFrom(
    'pnl',
    'winRate',
    'totalTrade',
    'ranking.pnl',
    'id',
    'account',
    'type',
    'lastTradeAt',
    'isOpenPosition',
  ),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});

describe('offline filter and sort', () => {
  it('gives the total and the page of the service SQL for any ranges, sort and page', () => {
    fc.assert(
      fc.property(
        datasetArb,
        fc.array(fc.oneof({ arbitrary: rangeArb, weight: 4 }, { arbitrary: textRangeArb, weight: 1 }), {
          maxLength: 3,
        }),
        sortArb,
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 20 }),
        (records, ranges, sort, limit, offset) => {
          const oracle = oracleOf(records);
          try {
            expect(local(indexOf(records), records, ranges, sort, limit, offset)).toEqual(
              oracle.query(ranges, sort, limit, offset),
            );
          } finally {
            oracle.close();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  const records: Rec[] = [
    {
      id: 'a',
      account: '0xAa',
      pnl: 5,
      winRate: 50,
      totalTrade: 1,
      lastTradeAtMs: 1_700_000_000_000,
      isOpenPosition: true,
      rankPnl: 100,
    },
    {
      id: 'b',
      account: '0xBb',
      pnl: null,
      winRate: 20,
      totalTrade: 2,
      lastTradeAtMs: 1_700_000_500_000,
      isOpenPosition: false,
      rankPnl: 0,
    },
    {
      id: 'c',
      account: '0xCc',
      pnl: -3,
      winRate: null,
      totalTrade: 3,
      lastTradeAtMs: 1_700_001_000_000,
      isOpenPosition: false,
      rankPnl: 50,
    },
    {
      id: 'd',
      account: '0xAa',
      pnl: 5,
      winRate: 80,
      totalTrade: 4,
      lastTradeAtMs: 1_700_001_000_000,
      isOpenPosition: true,
      rankPnl: 75,
    },
  ];
  const ids = (
    ranges: RangeCondition[],
    sort: { field: string; direction: 'asc' | 'desc' } = { field: 'id', direction: 'asc' },
  ) => local(indexOf(records), records, ranges, sort, 10, 0).ids;

  it.each([
    ['gte', [{ fieldName: 'pnl', gte: 5 }], ['a', 'd']],
    ['gt', [{ fieldName: 'pnl', gt: -3 }], ['a', 'd']],
    ['lte', [{ fieldName: 'pnl', lte: 5 }], ['a', 'c', 'd']],
    ['lt', [{ fieldName: 'pnl', lt: 5 }], ['c']],
    ['in', [{ fieldName: 'pnl', in: [5, '-3'] }], ['a', 'c', 'd']],
    ['nin (a null is in neither)', [{ fieldName: 'pnl', nin: [5] }], ['c']],
    ['empty in', [{ fieldName: 'pnl', in: [] }], []],
    ['empty nin (SQL literal 1: nulls too)', [{ fieldName: 'pnl', nin: [] }], ['a', 'b', 'c', 'd']],
    ['ranking percentile', [{ fieldName: 'ranking.pnl', gte: 50 }], ['a', 'c', 'd']],
    ['time as ISO text', [{ fieldName: 'lastTradeAt', gte: '2023-11-14T22:21:40.000Z' }], ['b', 'c', 'd']],
    ['boolean as text', [{ fieldName: 'isOpenPosition', in: ['true'] }], ['a', 'd']],
    [
      'several ranges',
      [
        { fieldName: 'pnl', gte: 0 },
        { fieldName: 'winRate', lt: 60 },
      ],
      ['a'],
    ],
    ['text field', [{ fieldName: 'account', in: ['0xAa'] }], ['a', 'd']],
    ['constant field', [{ fieldName: 'type', in: ['D7'] }], []],
  ] as [string, RangeCondition[], string[]][])('%s', (_, ranges, expected) => {
    expect(ids(ranges)).toEqual(expected);
    const oracle = oracleOf(records);
    expect(oracle.query(ranges, { field: 'id', direction: 'asc' }, 10, 0).ids).toEqual(expected);
    oracle.close();
  });

  it('sorts nulls first ascending and last descending, ties by id', () => {
    expect(ids([], { field: 'pnl', direction: 'asc' })).toEqual(['b', 'c', 'a', 'd']);
    expect(ids([], { field: 'pnl', direction: 'desc' })).toEqual(['a', 'd', 'c', 'b']);
  });

  it('refuses a bound that is not a number, as the service does', () => {
    expect(() => indexOf(records).count([{ fieldName: 'pnl', gte: 'lots' }])).toThrow(CoreError);
    expect(() => indexOf(records).count([{ fieldName: 'pnl', gte: 'lots' }])).toThrow(
      'ranges[0].gte must be a number or numeric text',
    );
    expect(() => indexOf(records).count([{ fieldName: 'isOpenPosition', in: [true, 'maybe'] }])).toThrow(
      'ranges[0].in[1] must be true or false',
    );
    expect(() => indexOf(records).count([{ fieldName: 'lastTradeAt', lt: 'yesterday' }])).toThrow(
      'ranges[0].lt must be an ISO 8601 time or epoch milliseconds',
    );
    expect(() => indexOf(records).count([{ fieldName: 'account', in: [true] }])).toThrow(
      'ranges[0].in[0] must be a string',
    );
  });
});

describe('the order of merged rows', () => {
  it('merges sorted lists into the order of one SQL sort over all of them', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.record({ value: value, id: fc.constantFrom('a', 'b', 'c', 'd') }), { maxLength: 8 }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 0, max: 40 }),
        (lists, direction, take) => {
          const keyed = lists.map((list, p) =>
            list.map((row) => ({ ...row, protocol: `P${p}` })).sort((a, b) => compareKeys(a, b, direction)),
          );
          const merged = mergeOrdered(keyed, (row) => row, direction, take);
          const db = new Database(':memory:');
          db.exec('CREATE TABLE t (value REAL, id TEXT, protocol TEXT)');
          const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
          keyed.flat().forEach((r) => insert.run(r.value, r.id, r.protocol));
          const expected = db
            .prepare(
              `SELECT value, id, protocol FROM t ORDER BY value ${direction}, id ASC, protocol ASC LIMIT ?`,
            )
            .all(take);
          db.close();
          expect(merged).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('radix sorting', () => {
  it('orders like a comparison sort, nulls first ascending and last descending, ties by index', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constant(NaN), fc.constant(-0), fc.double({ noNaN: true, noDefaultInfinity: true })),
          {
            maxLength: 300,
          },
        ),
        fc.boolean(),
        (list, desc) => {
          const values = Float64Array.from(list);
          const sign = desc ? -1 : 1;
          const expected = list
            .map((_, i) => i)
            .sort((a, b) => {
              const x = list[a] as number;
              const y = list[b] as number;
              if (Number.isNaN(x) || Number.isNaN(y)) {
                if (Number.isNaN(x) && Number.isNaN(y)) return a - b;
                return Number.isNaN(x) ? -sign : sign;
              }
              return x === y ? a - b : x < y ? -sign : sign;
            });
          expect([...sortedIndexes(values, desc)]).toEqual(expected);
          const below = countStrictlyBelow(values);
          list.forEach((x, i) => {
            const naive = list.filter((y) => (Number.isNaN(x) ? false : Number.isNaN(y) || y < x)).length;
            expect(below[i]).toBe(naive);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
