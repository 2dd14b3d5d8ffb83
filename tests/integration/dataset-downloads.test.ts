// Bulk downloads of a dataset (src/main/core/datasets) from the real local service, stopped
// in every way a download can stop (the service going away, a cancel, the process killed, the
// point in time expiring) and resumed: each must end with every record once, equal to a download
// that was never interrupted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchAfterRequestInput } from '../../src/shared/api/statistics';
import type { LeaderboardRow } from '../../src/shared/ipc/schemas/leaderboard';
import { createLocalService, type LocalService } from '../../src/service/app';
import { createApiKey } from '../../src/service/auth/api-keys';
import { defaultConfig } from '../../src/service/config';
import type { ServiceClient } from '../../src/main/core/client/service-client';
import { TestClock } from '../support/service';
import { statisticsHarness, type StatisticsHarness } from '../support/statistics-harness';
import { replacePopulation } from '../support/statistics-world';
import {
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_SERVICE_NAME,
  DEFAULT_VENUE,
  type ServiceProfile,
} from '../../src/shared/profile';
import { expectAll } from '../support/expect-all';

const KEY = { protocol: 'ZENITH_ARB', window: 'D7' } as const;
const RECORDS = 300;
const BATCH = 9;

/** The local service on a database that outlives it: it can be stopped and started again. */
class RestartableService {
  readonly dir = mkdtempSync(join(tmpdir(), 'copydesk-downloads-'));
  readonly clock = new TestClock();
  private service: LocalService | null = null;
  url = '';

  async start(): Promise<void> {
    this.service = createLocalService(
      defaultConfig({
        port: 0,
        dbPath: join(this.dir, 'service.db'),
        now: this.clock.now,
        seedFixture: true,
        rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      }),
    );
    this.url = await this.service.listen();
  }

  get db() {
    return (this.service as LocalService).db;
  }

  async stop(): Promise<void> {
    await this.service?.close();
    this.service = null;
  }
}

let svc: RestartableService;
let apiKey: string;
let baseline: LeaderboardRow[];
const harnesses: StatisticsHarness[] = [];

const profile = (): ServiceProfile => ({
  id: 'test',
  name: 'Test service',
  kind: 'local',
  baseUrl: svc.url,
  serviceName: DEFAULT_SERVICE_NAME,
  venue: DEFAULT_VENUE,
  graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
});

/** A core whose search-after calls are recorded and go through `before` first. */
function core(
  before: (call: number, body: SearchAfterRequestInput) => Promise<void> = async () => undefined,
  options: { dir?: string; ends?: 1 | 2 } = {},
) {
  const calls: SearchAfterRequestInput[] = [];
  const harness = statisticsHarness(profile(), {
    apiKey,
    datasets: { batchSize: BATCH, progressIntervalMs: 0, ...(options.ends && { ends: options.ends }) },
    client: { retry: { maxAttempts: 1 } },
    ...(options.dir && { dir: options.dir }),
    wrapClient: (client) => {
      const wrapped = Object.create(client) as ServiceClient;
      wrapped.searchAfterVia = async (body, transport) => {
        calls.push(body);
        await before(calls.length, body);
        return client.searchAfterVia(body, transport);
      };
      return wrapped;
    },
  });
  harnesses.push(harness);
  return { harness, calls };
}

/** Every row of the downloaded dataset, in id order. */
async function downloadedRows(harness: StatisticsHarness): Promise<LeaderboardRow[]> {
  const page = await harness.invoke('leaderboard:page', {
    protocols: [KEY.protocol],
    window: KEY.window,
    sort: { field: 'id', direction: 'asc' },
    limit: 500,
    source: 'downloaded',
  });
  return page.data.rows;
}

async function download(harness: StatisticsHarness) {
  await harness.invoke('downloads:start', KEY);
  return harness.datasets.settled(harness.profileId, KEY);
}

/** A download cancelled at its sixth search, once it has settled (paused part-way). */
/**
 * The calls of a resumed run went on from where the first stood: the ascending end, which had
 * written batches, after its cursor, and fewer calls than a whole download takes. (The other end
 * may have written none yet when the run stopped: its batch reader starts on its own thread, and
 * it then starts from its top, which is no duplicate; downloadedRows checks the result.)
 */
function expectResumed(resumed: SearchAfterRequestInput[]): void {
  expect(resumed.find((c) => c.sort?.[0]?.id === 'asc')?.searchAfter).toBeDefined();
  expect(resumed.length).toBeLessThan(RECORDS / BATCH);
}

async function startThenCancel() {
  let cancelled: Promise<unknown> | null = null;
  const { harness, calls } = core(async (call) => {
    if (call === 6) cancelled ??= harness.invoke('downloads:cancel', KEY);
  });
  await harness.invoke('downloads:start', KEY);
  const paused = await harness.datasets.settled(harness.profileId, KEY);
  await cancelled;
  return { harness, calls, paused };
}

beforeAll(async () => {
  svc = new RestartableService();
  await svc.start();
  replacePopulation(svc.db, KEY.protocol, KEY.window, RECORDS);
  apiKey = createApiKey(svc.db, svc.clock.now());
  // The reference: a download nothing interrupted, itself equal to the service's own rows.
  const { harness } = core();
  expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS, total: RECORDS });
  baseline = await downloadedRows(harness);
  const fromService = await harness.invoke('leaderboard:page', {
    protocols: [KEY.protocol],
    window: KEY.window,
    sort: { field: 'id', direction: 'asc' },
    limit: 500,
    source: 'service',
  });
  expect(baseline).toHaveLength(RECORDS);
  expect(baseline).toEqual(fromService.data.rows);
});

afterAll(async () => {
  for (const h of harnesses) await h.close().catch(() => undefined);
  await svc?.stop();
  if (svc) rmSync(svc.dir, { recursive: true, force: true });
});

describe('a download', () => {
  it('walks from both ends at once and stops where they meet', async () => {
    const { harness, calls } = core();
    expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS });
    expect(calls.some((c) => c.sort?.[0]?.id === 'desc')).toBe(true);
    expect(calls.some((c) => c.sort?.[0]?.id === 'asc')).toBe(true);
    // Every call but the first shares its point in time.
    expect(new Set(calls.slice(1).map((c) => c.pitId)).size).toBe(1);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(RECORDS / BATCH) + 3);
    expect(await downloadedRows(harness)).toEqual(baseline);
  });

  it('from one end only gives the same dataset', async () => {
    const { harness, calls } = core(undefined, { ends: 1 });
    expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS });
    expectAll(calls, (c) => c.sort?.[0]?.id === 'asc');
    expect(await downloadedRows(harness)).toEqual(baseline);
  });

  it('resumes after the service went away, with no duplicate and no gap', async () => {
    let stopped = false;
    const { harness, calls } = core(async (call) => {
      if (call === 8 && !stopped) {
        stopped = true;
        await svc.stop();
      }
    });
    const failed = await download(harness);
    expect(failed).toMatchObject({ state: 'failed', message: expect.stringMatching(/The download stopped/) });
    expect(failed?.downloaded).toBeGreaterThan(0);
    expect(failed?.downloaded).toBeLessThan(RECORDS);
    expect(harness.progress.at(-1)).toMatchObject({ state: 'failed' });
    await svc.start();
    harness.setUrl(svc.url);
    const before = calls.length;
    expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS, total: RECORDS });
    // It continued over the same point in time, each end from its cursor, not from scratch.
    expectAll(calls.slice(before), (c) => c.pitId === calls[1]?.pitId);
    expectResumed(calls.slice(before));
    expect(await downloadedRows(harness)).toEqual(baseline);
  });

  it('pauses on cancel and resumes where it stood', async () => {
    const { harness, calls, paused } = await startThenCancel();
    expect(paused).toMatchObject({ state: 'paused' });
    expect(harness.progress.at(-1)).toMatchObject({ state: 'paused' });
    expect(paused?.downloaded).toBeLessThan(RECORDS);
    const before = calls.length;
    expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS });
    expectResumed(calls.slice(before));
    expect(await downloadedRows(harness)).toEqual(baseline);
  });

  it('resumes after its process was killed in the middle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-killed-'));
    const datasetsPath = join(dir, 'datasets.db');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/support/download-child.ts',
        JSON.stringify({ url: svc.url, apiKey, datasetsPath, ...KEY, batchSize: BATCH, delayMs: 20 }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // Killed (no chance to clean up) once a few batches are stored.
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const stored = [...text.matchAll(/progress running (\d+)/g)].map((m) => Number(m[1]));
        if (stored.some((n) => n >= 5 * BATCH)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`the download ended by itself (${code}) before it was killed`)),
      );
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const { harness, calls } = core(undefined, { dir });
    const interrupted = (await harness.invoke('downloads:list', {})).find((s) => s.protocol === KEY.protocol);
    // The child's profile is 'p'; the harness reads the same file under its own profile.
    expect(interrupted).toBeUndefined();
    const reopened = await harness.datasets.list('p');
    expect(reopened[0]).toMatchObject({ state: 'paused', message: expect.stringMatching(/Interrupted/) });
    expect(reopened[0]?.downloaded).toBeGreaterThanOrEqual(5 * BATCH);
    expect(reopened[0]?.downloaded).toBeLessThan(RECORDS);
    await harness.datasets.start(
      'p',
      KEY,
      async () => harness.client(),
      () => undefined,
    );
    expect(await harness.datasets.settled('p', KEY)).toMatchObject({
      state: 'complete',
      downloaded: RECORDS,
    });
    expectAll(calls, (c) => c.searchAfter !== undefined && c.pitId !== undefined);
    const rows = (
      await harness.datasets.query({
        profileId: 'p',
        protocols: [KEY.protocol],
        window: KEY.window,
        ranges: [],
        sort: { field: 'id', direction: 'asc' },
        limit: 500,
        offset: 0,
        required: true,
      })
    )?.rows;
    expect(rows).toEqual(baseline);
  });

  it('starts again from scratch when its point in time expired while it was paused', async () => {
    const { harness, calls, paused } = await startThenCancel();
    expect(paused?.downloaded).toBeGreaterThan(0);
    // docs/api.md: a pit lives 5 minutes after its last use.
    svc.clock.advance(6 * 60_000);
    const before = calls.length;
    const progressBefore = harness.progress.length;
    expect(await download(harness)).toMatchObject({ state: 'complete', downloaded: RECORDS, total: RECORDS });
    const resumed = calls.slice(before);
    expect(resumed[0]?.pitId).toBe(calls[1]?.pitId);
    expect(resumed.some((c) => c.pitId === undefined)).toBe(true);
    // The new generation replaced the old one's records at once: the count started again from one batch.
    const counts = harness.progress.slice(progressBefore).map((p) => p.downloaded);
    expect(counts.some((n) => n <= BATCH)).toBe(true);
    expect(await downloadedRows(harness)).toEqual(baseline);
  });
});
