// The dataset worker thread behind StatisticsDatasets: its failures reach callers as CoreErrors,
// a worker that dies is replaced on the next call, and close() ends it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  StatisticsDatasets,
  type SearchAfterSource,
} from '../../../../../src/main/core/datasets/statistics-datasets';
import { CoreError } from '../../../../../src/main/core/errors';
import { STATISTIC_NUMERIC_FIELDS } from '../../../../../src/shared/api/statistics';
import { fakeSearchAfter, type FakeSearchAfter } from '../../../../support/fake-search-after';
import { ServiceClient } from '../../../../../src/main/core/client/service-client';
import { staticCredentials } from '../../../../../src/main/core/client/credentials';
import {
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_SERVICE_NAME,
  DEFAULT_VENUE,
  type ServiceProfile,
} from '../../../../../src/shared/profile';

const profileOf = (baseUrl: string): ServiceProfile => ({
  id: 'fake',
  name: 'Fake',
  kind: 'remote',
  baseUrl,
  serviceName: DEFAULT_SERVICE_NAME,
  venue: DEFAULT_VENUE,
  graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
});

const dirs: string[] = [];
const open = (options: ConstructorParameters<typeof StatisticsDatasets>[1] = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-worker-'));
  dirs.push(dir);
  return new StatisticsDatasets(join(dir, 'datasets.db'), options);
};

const KEY = { protocol: 'NOVA_ARB', window: 'D30' as const };

/** Downloads KEY from `source` until the run ends; answers the dataset's state then. */
async function download(datasets: StatisticsDatasets, source: SearchAfterSource) {
  await datasets.start(
    'p',
    KEY,
    async () => source,
    () => undefined,
  );
  return datasets.settled('p', KEY);
}
const fakes: FakeSearchAfter[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

/** The worker thread of a StatisticsDatasets (private: reached into for these tests only). */
const threadOf = (datasets: StatisticsDatasets) =>
  (datasets as unknown as { worker: { worker: Worker | null } }).worker.worker;

const query = {
  profileId: 'p',
  protocols: ['NOVA_ARB'],
  window: 'D30',
  ranges: [],
  sort: { field: 'pnl', direction: 'desc' as const },
  limit: 10,
  offset: 0,
};

describe('the dataset worker', () => {
  it('runs in its own thread and answers errors as CoreErrors with their code', async () => {
    const datasets = open();
    expect(await datasets.list('p')).toEqual([]);
    expect(threadOf(datasets)?.threadId).toBeGreaterThan(0);
    await expect(datasets.query({ ...query, required: true })).rejects.toSatisfy(
      (e: unknown) => e instanceof CoreError && e.code === 'NOT_FOUND',
    );
    expect(await datasets.query({ ...query, required: false })).toBeNull();
    await datasets.close();
  });

  it('fails the calls of a worker that died, and starts a new one for the next call', async () => {
    const datasets = open();
    await datasets.list('p');
    const first = threadOf(datasets) as Worker;
    const pending = datasets.list('p');
    await first.terminate();
    await expect(pending).rejects.toSatisfy((e: unknown) => e instanceof CoreError && e.code === 'INTERNAL');
    expect(await datasets.list('p')).toEqual([]);
    expect(threadOf(datasets)).not.toBe(first);
    await datasets.close();
  });

  it('ends its thread on close; later calls fail with a CoreError', async () => {
    const datasets = open();
    await datasets.list('p');
    const thread = threadOf(datasets) as Worker;
    const exited = new Promise((resolve) => thread.once('exit', resolve));
    await datasets.close();
    await exited;
    await expect(datasets.list('p')).rejects.toBeInstanceOf(CoreError);
  });
});

/**
 * A search-after endpoint over `ids` (one pit), answering like a deployment that ends with null;
 * `fault(call)` answers a call otherwise (text cut short, an error status).
 */
async function fakeService(
  count: number,
  fault: (call: number) => string | { status: number; text: string } | undefined = () => undefined,
) {
  const ids = Array.from({ length: count }, (_, i) => `id${String(i).padStart(3, '0')}`);
  const record = (id: string) => ({
    ...Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f) => [f, 1])),
    id,
    account: `0x${'a'.repeat(40)}`,
    type: 'D30',
    protocol: 'NOVA_ARB',
    pnl: Number(id.slice(2)),
    lastTradeAt: '2024-01-01T00:00:00.000Z',
    statisticAt: '2024-01-01T00:00:00.000Z',
    createdAt: '2024-01-01T00:00:00.000Z',
    indexTokens: [],
  });
  const calls: { sort: string; after: unknown }[] = [];
  const fake = await fakeSearchAfter((body) => {
    const faulty = fault(calls.length + 1);
    if (faulty !== undefined) {
      calls.push({ sort: 'fault', after: undefined });
      return faulty;
    }
    const desc = body.sort?.[0]?.id === 'desc';
    const order = desc ? [...ids].reverse() : ids;
    const after = body.searchAfter?.[0] as string | undefined;
    calls.push({ sort: desc ? 'desc' : 'asc', after });
    const from = after === undefined ? 0 : order.indexOf(after) + 1;
    const data = order.slice(from, from + (body.size ?? 20)).map(record);
    const exhausted = from + data.length >= order.length;
    const answer = {
      data,
      meta: {
        total: count,
        totalPages: 1,
        pitId: 'pit',
        // This deployment answers null once the data is exhausted (docs/api.md allows it).
        searchAfter: exhausted ? null : [data.at(-1)?.id ?? null],
      },
    };
    return JSON.stringify(answer);
  });
  fakes.push(fake);
  return { source: fake.source, baseUrl: fake.baseUrl, calls };
}

describe('a download against a deployment that ends its cursor with null', () => {
  it('stops there instead of starting over, from either end', async () => {
    for (const ends of [1, 2] as const) {
      // 40 records in batches of 10: every batch is full, the last one answers searchAfter null.
      const datasets = open({ batchSize: 10, ends });
      const { source, calls } = await fakeService(40);
      expect(await download(datasets, source)).toMatchObject({ state: 'complete', downloaded: 40 });
      expect(calls.filter((c) => c.after === undefined).length).toBe(ends);
      await datasets.close();
    }
  });
});

describe('a download whose service sends a batch that is not JSON', () => {
  it('fails with a sentence, keeps the batches written before, and resumes from there', async () => {
    const datasets = open({ batchSize: 10, ends: 1 });
    let broken = true;
    // The third batch arrives cut short, while the second one is being written.
    const { source: flaky } = await fakeService(40, (call) =>
      broken && call === 3 ? '{"data": [{"id": "id02' : undefined,
    );
    const failed = await download(datasets, flaky);
    expect(failed).toMatchObject({ state: 'failed', downloaded: 20 });
    expect(failed?.message).toMatch(/search-after with text that is not JSON/);
    broken = false;
    expect(await download(datasets, flaky)).toMatchObject({ state: 'complete', downloaded: 40 });
    await datasets.close();
  });
});

describe('a download through the service client', () => {
  it('retries a batch the service refused with 429: the reader hands back its status', async () => {
    const datasets = open({ batchSize: 10, ends: 1 });
    const { baseUrl, calls } = await fakeService(40, (call) =>
      call === 2 ? { status: 429, text: '{"code":"RATE_LIMITED","message":"slow down"}' } : undefined,
    );
    const client = new ServiceClient(profileOf(baseUrl), {
      credentials: staticCredentials({ apiKey: 'key' }),
      sleep: async () => undefined,
    });
    expect(await download(datasets, client)).toMatchObject({ state: 'complete', downloaded: 40 });
    expect(calls.map((c) => c.sort)).toEqual(['asc', 'fault', 'asc', 'asc', 'asc']);
    await datasets.close();
  });
});
