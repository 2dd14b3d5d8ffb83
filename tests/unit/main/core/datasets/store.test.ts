// The datasets' store (src/main/core/datasets), driven in-process as the worker drives it:
// batches with their cursors, the two ends of a download meeting, runs and generations, rankings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { RANKING_KEYS } from '../../../../../src/shared/api/statistics';
import { rankPopulation } from '../../../../../src/service/statistics/formulas/rankings';
import { DatasetHost } from '../../../../../src/main/core/datasets/dataset-host';
import type {
  BatchWrite,
  DatasetRef,
  LeaderboardPacked,
  ResumePoint,
  StreamName,
} from '../../../../../src/main/core/datasets/worker-messages';
import { LOWER_IS_BETTER, percentiles } from '../../../../../src/main/core/datasets/rankings';
import { packRecords, unpackRows } from '../../../../../src/main/core/datasets/fields';
import { CoreError } from '../../../../../src/main/core/errors';

const dirs: string[] = [];
const hostAt = (dir = mkdtempSync(join(tmpdir(), 'copydesk-datasets-'))) => {
  dirs.push(dir);
  return { host: new DatasetHost(join(dir, 'datasets.db')), dir };
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ref: DatasetRef = { profileId: 'p1', protocol: 'NOVA_ARB', window: 'D30' };
const NOW = '2024-05-01T00:00:00.000Z';

/** A statistic record as the client parses it (only what the store looks at matters here). */
const record = (i: number) => ({
  id: `id${String(i).padStart(4, '0')}`,
  account: `0x${i.toString(16).padStart(40, '0')}`,
  type: 'D30',
  protocol: 'NOVA_ARB',
  pnl: i % 7 === 0 ? null : (i * 37) % 101,
  winRate: (i * 13) % 100,
  totalTrade: i % 5,
  avgDuration: (i * 11) % 17,
  realisedMaxDrawdown: i % 3 === 0 ? null : -i,
  lastTradeAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  statisticAt: NOW,
  createdAt: NOW,
  indexTokens: ['0xabc'],
  isOpenPosition: i % 2 === 0,
});
const population = (n: number) => Array.from({ length: n }, (_, i) => record(i));

function write(
  host: DatasetHost,
  point: ResumePoint,
  stream: StreamName,
  records: Record<string, unknown>[],
  options: Partial<BatchWrite> & { size?: number } = {},
) {
  // A batch shorter than the size asked for is the last of its end.
  const { size = 5, ...rest } = options;
  return host.handle('write', {
    datasetId: point.datasetId,
    run: point.run,
    gen: point.gen,
    fresh: false,
    pitId: 'pit-1',
    stream,
    records: packRecords(records),
    after: records.length > 0 ? [records.at(-1)?.id] : null,
    total: 1000,
    last: records.length < size,
    nowIso: NOW,
    ...rest,
  }).value;
}

/** The rows of a query's answer. */
const rowsOf = (answer: LeaderboardPacked | null): Record<string, unknown>[] =>
  answer ? unpackRows(answer) : [];

/** Every row of the complete dataset (at most `n`), by id, through a query. */
function storedRows(host: DatasetHost, n: number): Record<string, unknown>[] {
  const answer = host.handle('query', {
    profileId: ref.profileId,
    protocols: [ref.protocol],
    window: ref.window,
    ranges: [],
    sort: { field: 'id', direction: 'asc' },
    limit: n + 10,
    offset: 0,
    required: true,
  }).value;
  return rowsOf(answer);
}

/** Every id of the complete dataset, in the order the store keeps it, through a query. */
const storedIds = (host: DatasetHost, n: number): string[] => storedRows(host, n).map((r) => r.id as string);

describe('a download written batch by batch', () => {
  it('keeps every record once when the two ends overlap, whatever the order the batches land in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        (n, turns) => {
          const { host } = hostAt();
          try {
            const all = population(n);
            let point = host.handle('begin', { ref, nowIso: NOW }).value;
            // First batch opens the point in time (a new generation).
            const first = write(host, point, 'asc', all.slice(0, 5), { fresh: true });
            point = { ...point, gen: first.gen };
            let done = first.done;
            // Each end walks its own direction, in batches of 5 that may cross what the other stored.
            let ascAt = 5;
            let descAt = n;
            for (const asc of turns) {
              if (done) break;
              const batch = asc
                ? all.slice(ascAt, ascAt + 5)
                : all.slice(Math.max(0, descAt - 5), descAt).reverse();
              if (asc) ascAt += 5;
              else descAt -= 5;
              const result = write(host, point, asc ? 'asc' : 'desc', batch);
              expect(result.stale).toBe(false);
              done = result.done;
            }
            expect(done).toBe(true);
            expect(storedIds(host, n)).toEqual(all.map((r) => r.id));
            expect(host.handle('list', { profileId: ref.profileId }).value[0]).toMatchObject({
              state: 'complete',
              downloaded: n,
            });
          } finally {
            host.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a batch of an earlier run, and of a paused download', () => {
    const { host } = hostAt();
    const all = population(20);
    const run1 = host.handle('begin', { ref, nowIso: NOW }).value;
    const first = write(host, run1, 'asc', all.slice(0, 5), { fresh: true });
    // The download is started again (say, after a cancel) before run 1's next batch lands.
    host.handle('stop', { ref, state: 'paused', message: 'Paused.' });
    expect(write(host, { ...run1, gen: first.gen }, 'asc', all.slice(5, 10)).stale).toBe(true);
    const run2 = host.handle('begin', { ref, nowIso: NOW }).value;
    expect(run2.run).toBe(run1.run + 1);
    expect(run2.cursors.asc).toMatchObject({ lastId: 'id0004', done: false });
    expect(write(host, { ...run1, gen: first.gen }, 'asc', all.slice(5, 10)).stale).toBe(true);
    expect(write(host, run2, 'asc', all.slice(5, 10)).stale).toBe(false);
    expect(host.handle('list', { profileId: ref.profileId }).value[0]?.downloaded).toBe(10);
    host.close();
  });

  it('replaces an unfinished generation whole with the first batch of a new point in time', () => {
    const { host } = hostAt();
    const all = population(20);
    const point = host.handle('begin', { ref, nowIso: NOW }).value;
    const first = write(host, point, 'asc', all.slice(0, 5), { fresh: true });
    write(host, { ...point, gen: first.gen }, 'asc', all.slice(5, 10));
    // The pit expired: a new generation starts from scratch, in the same transaction as its batch.
    const restart = host.handle('write', {
      datasetId: point.datasetId,
      run: point.run,
      gen: first.gen,
      fresh: true,
      pitId: 'pit-2',
      stream: 'asc',
      records: packRecords(all.slice(0, 5)),
      after: ['id0004'],
      total: 20,
      last: false,
      nowIso: NOW,
    });
    expect(restart.value.gen).toBe(first.gen + 1);
    expect(restart.value.state.downloaded).toBe(5);
    expect(restart.usage?.[ref.profileId]?.records).toBe(5);
    host.close();
  });

  it('keeps answering from the complete generation while a refresh runs, then switches', () => {
    const { host } = hostAt();
    const all = population(8);
    let point = host.handle('begin', { ref, nowIso: NOW }).value;
    write(host, point, 'asc', all.slice(0, 5), { fresh: true, size: 5 });
    point = host.handle('begin', { ref, nowIso: NOW }).value; // a resume: the same generation
    expect(write(host, point, 'asc', all.slice(5, 8), { size: 5 }).done).toBe(true);
    expect(storedIds(host, 8)).toHaveLength(8);
    // Refresh: a new generation of 3 records only.
    const refresh = host.handle('begin', { ref, nowIso: NOW }).value;
    expect(refresh.pitId).toBeNull();
    const partial = write(host, refresh, 'asc', all.slice(0, 2), { fresh: true, size: 2 });
    expect(partial.done).toBe(false);
    expect(storedIds(host, 8)).toHaveLength(8);
    expect(write(host, { ...refresh, gen: partial.gen }, 'asc', all.slice(2, 3), { size: 2 }).done).toBe(
      true,
    );
    expect(storedIds(host, 8)).toEqual(['id0000', 'id0001', 'id0002']);
    host.close();
  });

  it('keeps no record of a generation it dropped, nor of a deleted dataset', () => {
    const { host, dir } = hostAt();
    const all = population(12);
    const stored = () => {
      const file = new Database(join(dir, 'datasets.db'), { readonly: true });
      const counts = Object.fromEntries(
        ['records', 'record_numbers', 'chunks'].map((t) => [
          t,
          file.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get(),
        ]),
      );
      file.close();
      return counts;
    };
    let point = host.handle('begin', { ref, nowIso: NOW }).value;
    const first = write(host, point, 'asc', all.slice(0, 10), { fresh: true, size: 10 });
    expect(
      write(host, { ...point, gen: first.gen }, 'desc', all.slice(10).reverse(), { size: 10 }).done,
    ).toBe(true);
    // Ten records are two rows of numbers (eight a row), two records one more.
    expect(stored()).toEqual({ records: 12, record_numbers: 3, chunks: 2 });
    // A refresh whose point in time expired after one batch starts again, then completes.
    point = host.handle('begin', { ref, nowIso: NOW }).value;
    const partial = write(host, point, 'asc', all.slice(0, 4), { fresh: true, size: 4 });
    const again = write(host, { ...point, gen: partial.gen }, 'asc', all.slice(0, 3), {
      fresh: true,
      size: 4,
    });
    expect(again.done).toBe(true);
    expect(stored()).toEqual({ records: 3, record_numbers: 1, chunks: 1 });
    expect(storedRows(host, 12).map(({ ranking: _, ...rest }) => rest)).toEqual(all.slice(0, 3));
    host.handle('delete', { ref });
    expect(stored()).toEqual({ records: 0, record_numbers: 0, chunks: 0 });
    host.close();
  });

  it('marks what was running as interrupted when the file is opened again', () => {
    const { host, dir } = hostAt();
    const point = host.handle('begin', { ref, nowIso: NOW }).value;
    write(host, point, 'asc', population(5), { fresh: true });
    host.close();
    const again = new DatasetHost(join(dir, 'datasets.db'));
    expect(again.handle('list', { profileId: ref.profileId }).value[0]).toMatchObject({
      state: 'paused',
      downloaded: 5,
      message: expect.stringMatching(/Interrupted/),
    });
    again.close();
  });

  it('says a dataset is missing when a query insists on it', () => {
    const { host } = hostAt();
    const query = {
      profileId: ref.profileId,
      protocols: ['NOVA_ARB', 'HELIX_OP'],
      window: 'D30',
      ranges: [],
      sort: { field: 'pnl', direction: 'desc' as const },
      limit: 10,
      offset: 0,
      required: false,
    };
    expect(host.handle('query', query).value).toBeNull();
    expect(() => host.handle('query', { ...query, required: true })).toThrow(CoreError);
    host.close();
  });

  it('gives back each record as it came, with its ranking', () => {
    const { host } = hostAt();
    const all = population(6);
    const point = host.handle('begin', { ref, nowIso: NOW }).value;
    write(host, point, 'asc', all, { fresh: true, size: 10 });
    const answer = host.handle('query', {
      profileId: ref.profileId,
      protocols: [ref.protocol],
      window: ref.window,
      ranges: [],
      sort: { field: 'id', direction: 'asc' },
      limit: 10,
      offset: 0,
      required: true,
    }).value;
    const rows = rowsOf(answer);
    expect(rows.map(({ ranking: _, ...rest }) => rest)).toEqual(all);
    expect(rows[0]?.ranking).toMatchObject({ winRate: 0, totalTrade: 0 });
    host.close();
  });

  it('refuses a batch that repeats an id, within itself or after its end’s last, and writes none of it', () => {
    const { host } = hostAt();
    const all = population(20);
    let point = host.handle('begin', { ref, nowIso: NOW }).value;
    point = { ...point, gen: write(host, point, 'asc', all.slice(0, 5), { fresh: true }).gen };
    const inside = [all[5], all[6], all[6], all[7], all[8]] as Record<string, unknown>[];
    expect(() => write(host, point, 'asc', inside)).toThrow(/holds record id0006 twice/);
    const again = all.slice(4, 9);
    expect(() => write(host, point, 'asc', again)).toThrow(/holds record id0004 twice/);
    expect(host.handle('list', { profileId: ref.profileId }).value[0]).toMatchObject({ downloaded: 5 });
    host.close();
  });

  it('ranks the same population the same whether or not the store was restarted mid-download', () => {
    const all = population(23);
    const rankings = (restartAfter: number | null) => {
      const made = hostAt();
      let host = made.host;
      let point = host.handle('begin', { ref, nowIso: NOW }).value;
      point = { ...point, gen: write(host, point, 'asc', all.slice(0, 5), { fresh: true }).gen };
      // Both ends, in turns; the last ascending batch reaches what the descending end stored.
      const later: [StreamName, Record<string, unknown>[]][] = [
        ['desc', all.slice(18, 23).reverse()],
        ['asc', all.slice(5, 10)],
        ['desc', all.slice(13, 18).reverse()],
        ['asc', all.slice(10, 15)],
      ];
      for (const [batch, [stream, records]] of later.entries()) {
        if (batch === restartAfter) {
          // The kept ranking numbers are gone with the process: completion reads the chunks back.
          host.close();
          host = new DatasetHost(join(made.dir, 'datasets.db'));
          point = host.handle('begin', { ref, nowIso: NOW }).value;
        }
        write(host, point, stream, records);
      }
      const rows = storedRows(host, 50);
      host.close();
      return rows.map((r) => r.ranking);
    };
    const straight = rankings(null);
    expect(straight).toHaveLength(23);
    expect(rankings(1)).toEqual(straight);
    expect(rankings(3)).toEqual(straight);
  });
});

describe('rankings of a downloaded population', () => {
  it('are the service’s percentiles (docs/semantics.md), nulls and ties included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            Object.fromEntries(
              RANKING_KEYS.map((k) => [k, fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 3 }))]),
            ) as Record<(typeof RANKING_KEYS)[number], fc.Arbitrary<number | null>>,
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (records) => {
          const expected = rankPopulation(records);
          for (const key of RANKING_KEYS) {
            const column = Float64Array.from(records, (r) => r[key] ?? NaN);
            expect([...percentiles(column, LOWER_IS_BETTER.has(key))]).toEqual(expected.map((r) => r[key]));
          }
        },
      ),
      { numRuns: 200 },
    );
    // 200 populations ranked on 19 keys twice: seconds on a loaded 2-core machine.
  }, 60_000);
});
