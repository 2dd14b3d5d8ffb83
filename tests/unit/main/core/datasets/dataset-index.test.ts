// A downloaded dataset answered by the shared statistics index (dataset-index.ts,
// dataset-population.ts): its order checked against the leaderboard's own order (compareKeys,
// which merges the service's rows and the datasets' rows alike), the matches of a filter kept
// while its pages are read, the accounts read only when a query names them, and its bytes.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as statisticsIndex from '../../../../../src/shared/statistics-index';
import { DatasetIndex, type DatasetSource } from '../../../../../src/main/core/datasets/dataset-index';
import {
  compareKeys,
  mergeOrdered,
  type OrderKey,
} from '../../../../../src/main/core/datasets/leaderboard-order';

vi.mock('../../../../../src/shared/statistics-index', async (importOriginal) => {
  const original = await importOriginal<typeof statisticsIndex>();
  return {
    ...original,
    matchingRecords: vi.fn(original.matchingRecords),
    boundMatches: vi.fn(original.boundMatches),
  };
});

interface Rec {
  id: string;
  account: string;
  pnl: number;
  winRate: number;
  rank: number;
}

/** A dataset over `records` (in id order) whose source counts what it is asked. */
function datasetOf(records: Rec[], protocol = 'NOVA_ARB') {
  const asked = { columns: [] as string[][], accounts: 0 };
  const columns: Record<string, Float64Array> = {
    pnl: Float64Array.from(records, (r) => r.pnl),
    winRate: Float64Array.from(records, (r) => r.winRate),
    'ranking.pnl': Float64Array.from(records, (r) => r.rank),
  };
  const source: DatasetSource = {
    columns: (names) => {
      asked.columns.push([...names]);
      return names.map((n) => columns[n] ?? new Float64Array(records.length).fill(NaN));
    },
    ranking: (name) => columns[name] ?? new Float64Array(records.length).fill(50),
    texts: (name) => {
      if (name === 'accounts') asked.accounts += 1;
      return records.map((r) => (name === 'ids' ? r.id : r.account));
    },
    seqs: () => Float64Array.from(records, (_, i) => i),
  };
  return { index: new DatasetIndex(records.length, { protocol, type: 'D30' }, source), asked };
}

// Few distinct values, with NaN (a missing value) and -0, so that ties and nulls are common.
const valueArb = fc.constantFrom(NaN, NaN, -0, 0, -3.5, 1, 2, 2, 1e9, -1e9, 0.1);
const recordsArb = (hex: boolean) =>
  fc
    .array(
      fc.record({
        account: fc.constantFrom('0xAa', '0xBb', '0xcc'),
        pnl: valueArb,
        winRate: valueArb,
        rank: fc.constantFrom(0, 12.5, 50, 100),
      }),
      { minLength: 0, maxLength: 300 },
    )
    .map((list) =>
      list.map((r, i): Rec => ({
        ...r,
        id: hex ? i.toString(16).padStart(24, '0') : `id${String(i).padStart(4, '0')}`,
      })),
    );
const sortArb = fc.record({
  field: fc.constantFrom('pnl', 'winRate', 'ranking.pnl', 'id', 'account', 'type'),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});

/**
 * A record's value of a field as the leaderboard compares it: NULL for a missing number, and -0
 * as 0 (they compare equal; JSON cannot carry -0, so no downloaded record holds one).
 */
function valueOf(r: Rec, field: string): number | string | null {
  if (field === 'id' || field === 'account') return r[field];
  if (field === 'type') return 'D30';
  const v = field === 'ranking.pnl' ? r.rank : r[field as 'pnl' | 'winRate'];
  return Number.isNaN(v) ? null : v === 0 ? 0 : v;
}

const keyOf = (r: Rec, field: string, protocol = 'NOVA_ARB'): OrderKey => ({
  value: valueOf(r, field),
  id: r.id,
  protocol,
});

describe('a dataset on the shared index', () => {
  it('orders records as compareKeys does (NULL lowest, ties by id), whole or filtered', () => {
    fc.assert(
      fc.property(
        fc.boolean().chain((hex) => recordsArb(hex)),
        sortArb,
        // 3 leaves only 1e9 (a tenth of the values): sparse matches, paged by a partial sort.
        fc.option(fc.constantFrom(-1, 0, 1, 2, 3), { nil: undefined }),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 })),
        fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 120 })),
        (records, sort, atLeast, offset, limit) => {
          const { index } = datasetOf(records);
          const ranges = atLeast === undefined ? [] : [{ fieldName: 'winRate', gte: atLeast }];
          const kept = records.filter((r) => atLeast === undefined || (r.winRate as number) >= atLeast);
          const expected = [...kept]
            .sort((a, b) => compareKeys(keyOf(a, sort.field), keyOf(b, sort.field), sort.direction))
            .slice(offset, offset + limit);
          const page = index.page(ranges, sort, offset, offset + limit);
          expect(page.map((i) => records[i]!.id)).toEqual(expected.map((r) => r.id));
          expect(index.count(ranges)).toBe(kept.length);
          // The value the host merges by is the record's, NULL for a missing number.
          for (const i of page)
            expect(index.sortValue(sort.field, i)).toEqual(valueOf(records[i]!, sort.field));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('merges two datasets into the order of one sort over both', () => {
    fc.assert(
      fc.property(
        recordsArb(true),
        recordsArb(true),
        sortArb,
        fc.integer({ min: 1, max: 60 }),
        (a, b, sort, take) => {
          // The same ids in both protocols: ties across datasets fall to the protocol.
          const parts = [
            { records: a, protocol: 'ALPHA', ...datasetOf(a, 'ALPHA') },
            { records: b, protocol: 'BETA', ...datasetOf(b, 'BETA') },
          ];
          const merged = mergeOrdered(
            parts.map((p) => p.index.page([], sort, 0, take).map((i) => ({ p, i }))),
            ({ p, i }) => ({
              value: p.index.sortValue(sort.field, i),
              id: p.index.id(i),
              protocol: p.protocol,
            }),
            sort.direction,
            take,
          );
          const expected = parts
            .flatMap((p) => p.records.map((r) => ({ r, protocol: p.protocol })))
            .sort((x, y) =>
              compareKeys(
                keyOf(x.r, sort.field, x.protocol),
                keyOf(y.r, sort.field, y.protocol),
                sort.direction,
              ),
            )
            .slice(0, take);
          expect(merged.map(({ p, i }) => `${p.protocol}/${p.records[i]!.id}`)).toEqual(
            expected.map(({ r, protocol }) => `${protocol}/${r.id}`),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  const records: Rec[] = Array.from({ length: 50 }, (_, i) => ({
    id: `id${String(i).padStart(3, '0')}`,
    account: `0x${(i % 7).toString(16).padStart(40, '0')}`,
    pnl: i % 5 === 0 ? NaN : (i * 37) % 11,
    winRate: i % 9,
    rank: (i * 13) % 100,
  }));

  it('matches a filter once while its pages are read, and again for a new filter', () => {
    const matching = vi.mocked(statisticsIndex.matchingRecords);
    const bitMatching = vi.mocked(statisticsIndex.boundMatches);
    const { index } = datasetOf(records);
    const sort = { field: 'pnl', direction: 'desc' as const };
    // Wide bounds are matched as bitmaps; a narrow one or an `in` record by record. Either is
    // asked once a filter, however many of its pages are read.
    const cases = [
      { ranges: [{ fieldName: 'winRate', gte: 3 }], keep: (r: Rec) => r.winRate >= 3, bits: 1, list: 0 },
      { ranges: [{ fieldName: 'ranking.pnl', gte: 95 }], keep: (r: Rec) => r.rank >= 95, bits: 1, list: 1 },
      {
        ranges: [{ fieldName: 'winRate', in: [1, 2, 3, 4] }],
        keep: (r: Rec) => [1, 2, 3, 4].includes(r.winRate),
        bits: 1, // asked, and declines
        list: 1,
      },
    ];
    expect(records.filter(cases[1]!.keep).length * 16).toBeLessThan(records.length);
    for (const { ranges, keep, bits, list } of cases) {
      matching.mockClear();
      bitMatching.mockClear();
      const first = index.page(ranges, sort, 0, 5);
      const total = index.count(ranges);
      const second = index.page(ranges, sort, 5, 10);
      expect(bitMatching).toHaveBeenCalledTimes(bits);
      expect(matching).toHaveBeenCalledTimes(list);
      const kept = records.filter(keep);
      expect(total).toBe(kept.length);
      const expected = kept
        .sort((a, b) => compareKeys(keyOf(a, 'pnl'), keyOf(b, 'pnl'), 'desc'))
        .map((r) => r.id);
      expect([...first, ...second].map((i) => records[i]!.id)).toEqual(expected.slice(0, 10));
    }
  });

  it('reads the accounts only when a query names them, keeping the columns it has', () => {
    const { index, asked } = datasetOf(records);
    const sort = { field: 'pnl', direction: 'asc' as const };
    index.page([{ fieldName: 'winRate', lt: 5 }], sort, 0, 10);
    expect(asked.accounts).toBe(0);
    expect(asked.columns).toEqual([['winRate'], ['pnl']]);
    const account = `0x${(3).toString(16).padStart(40, '0')}`;
    const page = index.page([{ fieldName: 'account', in: [account] }], sort, 0, 50);
    expect(asked.accounts).toBe(1);
    expect(page.map((i) => records[i]!.id)).toEqual(
      records
        .filter((r) => r.account === account)
        .sort((a, b) => compareKeys(keyOf(a, 'pnl'), keyOf(b, 'pnl'), 'asc'))
        .map((r) => r.id),
    );
    const byAccount = index.page([], { field: 'account', direction: 'desc' }, 0, 3);
    expect(byAccount.map((i) => index.sortValue('account', i))).toEqual([
      `0x${(6).toString(16).padStart(40, '0')}`,
      `0x${(6).toString(16).padStart(40, '0')}`,
      `0x${(6).toString(16).padStart(40, '0')}`,
    ]);
    // The columns held before the accounts came are not read again.
    expect(asked.accounts).toBe(1);
    expect(asked.columns).toEqual([['winRate'], ['pnl']]);
  });

  it('counts the columns, permutations and matches it holds', () => {
    const { index } = datasetOf(records);
    const empty = index.memoryBytes();
    index.count([{ fieldName: 'winRate', gte: 3 }]);
    const filtered = index.memoryBytes();
    // winRate as 2-byte codes, its permutation (2 bytes a record at this size), the matches (a
    // wide bound: one bit a record, in 32-bit words) and winRate's cumulative bitmaps (51 of 50
    // records: a step of one record at this size).
    expect(filtered - empty).toBe(50 * 2 + 50 * 2 + 2 * 4 + 51 * 2 * 4);
    index.count([{ fieldName: 'winRate', in: [1, 2] }]);
    const listed = records.filter((r) => [1, 2].includes(r.winRate)).length;
    expect(index.memoryBytes() - filtered).toBe(listed * 4);
    const before = index.memoryBytes();
    index.page([], { field: 'pnl', direction: 'desc' }, 0, 10);
    expect(index.memoryBytes()).toBeGreaterThan(before);
  });
});
