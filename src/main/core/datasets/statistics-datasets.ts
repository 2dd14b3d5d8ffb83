import { statSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { getAddress } from 'viem';
import type { RangeCondition } from '../../../shared/api/common';
import type { DatasetKey, DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { SEARCH_AFTER_SIZE_MAX } from '../../../shared/api/statistics';
import { CoreError } from '../errors';
import { unpackRows } from './fields';
import { openDatasetDatabase } from './dataset-schema';
import { markInterrupted, usageOf } from './download-states';
import { DatasetWorkerClient } from './dataset-worker-client';
import { DownloadRun, type SearchAfterSource } from './download-run';
import type { DatasetRef, LeaderboardAnswer, LeaderboardQuery, StreamName, Usage } from './worker-messages';

export type { SearchAfterSource } from './download-run';

export interface StatisticsDatasetsOptions {
  /** Records per search-after call; default the API's maximum, 1000. */
  batchSize?: number;
  /** Walk a download from both ends at once (2, the default) or from the smallest id only (1). */
  ends?: 1 | 2;
  /** Minimum time between two `download:progress` events of one download; default 100 ms. */
  progressIntervalMs?: number;
  now?: () => Date;
}

/** 0x addresses in an `account` range, checksummed as the service stores (and compares) them. */
function checksumAccounts(range: RangeCondition): RangeCondition {
  if (range.fieldName !== 'account') return range;
  const fix = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? getAddress(v) : v);
  const out: Record<string, unknown> = { fieldName: range.fieldName };
  for (const [op, value] of Object.entries(range)) {
    if (op === 'fieldName' || value === undefined) continue;
    out[op] = Array.isArray(value) ? value.map(fix) : fix(value);
  }
  return out as RangeCondition;
}

const refKey = (ref: DatasetRef): string => `${ref.profileId}\u0000${ref.protocol}\u0000${ref.window}`;

/**
 * Statistics datasets downloaded whole for offline use (docs/core-cache.md): one protocol and one
 * window per dataset, per profile, in their own SQLite file. Every read and write of that file
 * happens in a worker thread; this class runs the downloads (the service calls go through the
 * profile's client) and answers leaderboard pages from complete datasets.
 */
export class StatisticsDatasets {
  private readonly worker: DatasetWorkerClient;
  /** One batch reader per end of a download, each on a thread of its own (batch-bytes.ts). */
  private readonly readers: Record<StreamName, DatasetWorkerClient>;
  /** Which starts of the readers and the worker share channels (prepare). */
  private connected = '';
  private connecting: Promise<unknown> = Promise.resolve();
  private readonly runs = new Map<string, DownloadRun>();
  private usage: Usage;
  private readonly batchSize: number;
  private readonly ends: 1 | 2;
  private readonly progressIntervalMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly path: string,
    options: StatisticsDatasetsOptions = {},
  ) {
    this.batchSize = Math.min(Math.max(1, options.batchSize ?? SEARCH_AFTER_SIZE_MAX), SEARCH_AFTER_SIZE_MAX);
    this.ends = options.ends ?? 2;
    this.progressIntervalMs = options.progressIntervalMs ?? 100;
    this.now = options.now ?? (() => new Date());
    // The schema, the first usage figures, and the downloads a previous process left running, read
    // once here (a small table) so that stats() can answer at once; the worker does the rest.
    const db = openDatasetDatabase(path);
    try {
      markInterrupted(db);
      this.usage = usageOf(db);
    } finally {
      db.close();
    }
    this.worker = new DatasetWorkerClient(path, (usage) => (this.usage = usage));
    this.readers = { asc: new DatasetWorkerClient(null), desc: new DatasetWorkerClient(null) };
  }

  /** Datasets, stored records (every profile) and the bytes of the file on disk. */
  stats(): { datasets: number; records: number; bytes: number } {
    let datasets = 0;
    let records = 0;
    for (const u of Object.values(this.usage)) {
      datasets += u.datasets;
      records += u.records;
    }
    let bytes = 0;
    // -wal: a file written before the datasets left WAL (it is folded in at the next open).
    for (const file of [this.path, `${this.path}-journal`, `${this.path}-wal`]) {
      try {
        bytes += statSync(file).size;
      } catch {
        // not there (yet)
      }
    }
    return { datasets, records, bytes };
  }

  /**
   * The profile's downloads and their states. The leaderboard lists them when it opens: the batch
   * readers start then too (prepare), so that a download the user starts does not wait for
   * their threads to boot.
   */
  list(profileId: string): Promise<DownloadState[]> {
    const listed = this.worker.call('list', { profileId });
    this.prepare().catch(() => undefined);
    return listed;
  }

  /**
   * Starts (or resumes, or refreshes when complete) a download and returns at once; the download
   * runs in the background and reports each batch through `onProgress`. A download already running
   * is left alone and its state returned.
   */
  async start(
    profileId: string,
    key: DatasetKey,
    source: () => Promise<SearchAfterSource>,
    onProgress: (state: DownloadState) => void,
  ): Promise<DownloadState> {
    const ref: DatasetRef = { profileId, protocol: key.protocol, window: key.window };
    const running = this.runs.get(refKey(ref));
    if (running && !running.stopping()) return running.state();
    const point = await this.worker.call('begin', { ref, nowIso: this.now().toISOString() });
    await this.prepare();
    const run = new DownloadRun(
      {
        worker: this.worker,
        readers: this.readers,
        ref,
        source,
        batchSize: this.batchSize,
        ends: this.ends,
        onProgress,
        progressIntervalMs: this.progressIntervalMs,
        now: this.now,
      },
      point,
    );
    this.runs.set(refKey(ref), run);
    void run.finished.finally(() => {
      if (this.runs.get(refKey(ref)) === run) this.runs.delete(refKey(ref));
    });
    return point.state;
  }

  /** Pauses a running download (it resumes where it stood when started again). */
  async cancel(
    profileId: string,
    key: DatasetKey,
    onProgress?: (state: DownloadState) => void,
  ): Promise<DownloadState> {
    const ref: DatasetRef = { profileId, protocol: key.protocol, window: key.window };
    this.runs.get(refKey(ref))?.cancel();
    const state = await this.worker.call('stop', {
      ref,
      state: 'paused',
      message: 'Paused; start the download again to resume it.',
    });
    if (!state)
      throw new CoreError(
        'NOT_FOUND',
        `${key.protocol} ${key.window} has not been downloaded: there is nothing to pause.`,
      );
    onProgress?.(state);
    return state;
  }

  /** Deletes a dataset (stopping its download); answers the profile's remaining downloads. */
  async delete(profileId: string, key: DatasetKey): Promise<DownloadState[]> {
    const ref: DatasetRef = { profileId, protocol: key.protocol, window: key.window };
    this.runs.get(refKey(ref))?.cancel();
    await this.worker.call('delete', { ref });
    return this.list(profileId);
  }

  /** Resolves when the dataset's running download (if any) has ended, with its last state. */
  async settled(profileId: string, key: DatasetKey): Promise<DownloadState | null> {
    const run = this.runs.get(refKey({ profileId, protocol: key.protocol, window: key.window }));
    if (run) await run.finished;
    return (
      (await this.list(profileId)).find((s) => s.protocol === key.protocol && s.window === key.window) ?? null
    );
  }

  /**
   * A leaderboard page from complete datasets. Null when one is missing and `query.required` is
   * false (the caller asks the service); a NOT_FOUND CoreError when it is required.
   */
  async query(query: LeaderboardQuery): Promise<LeaderboardAnswer | null> {
    const answer = await this.worker.call('query', { ...query, ranges: query.ranges.map(checksumAccounts) });
    if (!answer) return null;
    return { rows: unpackRows(answer), total: answer.total, fetchedAt: answer.fetchedAt };
  }

  /** Deletes the datasets of one profile, or of every profile. Never rejects (failures are logged). */
  async clear(profileId?: string): Promise<void> {
    for (const [key, run] of this.runs)
      if (profileId === undefined || key.startsWith(`${profileId}\u0000`)) run.cancel();
    if (profileId === undefined) this.usage = {};
    else delete this.usage[profileId];
    await this.worker.call('clear', profileId === undefined ? {} : { profileId }).catch((error: unknown) => {
      console.error(`[copydesk core] clearing the downloaded datasets failed: ${(error as Error).message}`);
    });
  }

  /**
   * Starts the batch readers (if they are not running) and gives each of them and the dataset
   * worker a channel of their own (batch-channel.ts); resolves when they are ready. Done once for
   * the workers running now, again only when one was started anew. A download does it first; the
   * leaderboard's listing lets it happen beforehand. Each worker handles its messages in order, so
   * the channels are in place before any read or write sent after this.
   */
  prepare(): Promise<unknown> {
    const ends = ['asc', 'desc'] as const;
    const stamp = [...ends.map((end) => this.readers[end].instance()), this.worker.instance()].join('/');
    if (stamp === this.connected) return this.connecting;
    this.connected = stamp;
    this.connecting = Promise.all(
      ends.flatMap((end) => {
        const { port1, port2 } = new MessageChannel();
        return [
          this.readers[end].call('connect', { port: port1, from: end }, [port1]),
          this.worker.call('connect', { port: port2, from: end }, [port2]),
        ];
      }),
    );
    return this.connecting;
  }

  /** Stops the downloads (they resume when started again) and ends the worker. */
  async close(): Promise<void> {
    const stops = [...this.runs.values()].map(async (run) => {
      run.cancel();
      await this.worker
        .call('stop', {
          ref: run.ref,
          state: 'paused',
          message: 'Interrupted when Copydesk stopped; start the download again to resume it.',
        })
        .catch(() => undefined);
    });
    await Promise.all(stops);
    this.runs.clear();
    await Promise.all([this.worker.close(), this.readers.asc.close(), this.readers.desc.close()]);
  }
}
