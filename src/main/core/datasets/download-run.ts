import type { SearchAfterRequestInput } from '../../../shared/api/statistics';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import type { HttpRequest } from '../client/http';
import { CoreError } from '../errors';
import { packedBuffers } from './batch-channel';
import type { DatasetWorkerClient } from './dataset-worker-client';
import type { BatchResult, DatasetRef, ReadBatch, ResumePoint, StreamName } from './worker-messages';

/**
 * What a download reads from: the profile's service client (search-after takes an API key). It
 * builds each request with its credentials and runs its retries and re-login; the batch reader
 * sends the request and parses the answer (batch-bytes.ts).
 */
export interface SearchAfterSource {
  searchAfterVia<T>(
    body: SearchAfterRequestInput,
    transport: (request: HttpRequest) => Promise<T>,
  ): Promise<T>;
}

export interface DownloadRunOptions {
  worker: DatasetWorkerClient;
  /**
   * The batch readers, one per end: each fetches and parses its end's answers while the worker
   * writes the batch before, and the two ends' answers are parsed on two threads.
   */
  readers: Record<StreamName, DatasetWorkerClient>;
  ref: DatasetRef;
  source: () => Promise<SearchAfterSource>;
  /** Records per search-after call (the API's maximum is 1000). */
  batchSize: number;
  /** 2: walk from both ends at once (the default); 1: from the smallest id only. */
  ends: 1 | 2;
  onProgress: (state: DownloadState) => void;
  /** Progress events are sent at most this often (the last one always). */
  progressIntervalMs: number;
  now: () => Date;
}

/** Keys of read batches, unique in the process (batch-channel.ts). */
let nextBatchKey = 1;

type Stop = { kind: 'done' } | { kind: 'paused' } | { kind: 'stale' } | { kind: 'failed'; message: string };

/**
 * One run of a bulk download (docs/core-cache.md, Download and resume). The records come through
 * search-after over one point in time, sorted by id, from both ends at once: the smallest ids
 * upward and the largest downward, until they meet. Two calls in flight keep the service and the
 * core busy at the same time; every batch is written by the worker with its cursor in one
 * transaction, so a run stopped anywhere (cancel, a failure, the process killed) resumes where it
 * stood. A resume whose point in time expired starts a new generation from scratch instead.
 */
export class DownloadRun {
  /** Resolves with the last state once every call of the run has settled. */
  readonly finished: Promise<DownloadState>;
  private stop: Stop | null = null;
  private pitId: string | null;
  private latest: DownloadState;
  private lastProgressMs = 0;
  private readonly queries: { fieldName: string; value: string }[];

  constructor(
    private readonly options: DownloadRunOptions,
    private point: ResumePoint,
  ) {
    this.pitId = point.pitId;
    this.latest = point.state;
    this.queries = [
      { fieldName: 'protocol', value: options.ref.protocol },
      { fieldName: 'type', value: options.ref.window },
    ];
    this.finished = this.run();
  }

  /** The dataset this run downloads. */
  get ref(): DatasetRef {
    return this.options.ref;
  }

  /** The state as last written. */
  state(): DownloadState {
    return this.latest;
  }

  /** True once the run was told to stop (its last calls may still be settling). */
  stopping(): boolean {
    return this.stop !== null;
  }

  /** Stops at the next batch without writing it; the caller records the pause. */
  cancel(): void {
    this.stop ??= { kind: 'paused' };
  }

  private async run(): Promise<DownloadState> {
    this.progress(this.latest, true);
    try {
      const source = await this.options.source();
      let restarted = false;
      for (;;) {
        try {
          await this.walk(source);
          break;
        } catch (error) {
          // docs/api.md: a pit lives 5 minutes after its last use. Records of two points in time
          // must never mix, so the run starts a new generation, which replaces the unfinished one
          // atomically with its first batch.
          if (!restarted && this.stop === null && isPitExpired(error)) {
            restarted = true;
            this.pitId = null;
            continue;
          }
          throw error;
        }
      }
    } catch (error) {
      this.stop ??= { kind: 'failed', message: failureMessage(error) };
    }
    // A completed run has told its last state already; a paused one is told by whoever paused it.
    const stop = this.stop;
    if (stop?.kind === 'failed') {
      const state = await this.options.worker
        .call('stop', { ref: this.options.ref, state: 'failed', message: stop.message })
        .catch(() => null);
      if (state) {
        this.latest = state;
        this.progress(state, true);
      }
    }
    return this.latest;
  }

  /** Walks both ends until they meet, the run stops, or a call fails. */
  private async walk(source: SearchAfterSource): Promise<void> {
    if (this.pitId === null) {
      // A new generation: its first batch opens the point in time.
      const batch = await this.fetchRead(source, 'asc', this.body('asc', null, null));
      if (this.stop) return;
      const result = await this.write('asc', batch, true);
      if (!result.stale) {
        this.point = {
          ...this.point,
          gen: result.gen,
          cursors: { asc: { after: batch.meta.after, lastId: null, done: result.done }, desc: null },
        };
      }
      if (this.settle(result)) return;
    }
    const ends: StreamName[] = this.options.ends === 2 ? ['asc', 'desc'] : ['asc'];
    const walking = ends
      .filter((end) => !this.point.cursors[end]?.done)
      .map((end) =>
        this.walkEnd(source, end, this.point.cursors[end]?.after ?? null).catch((error: unknown) => {
          // One end failing stops the other at its next batch.
          if (!isPitExpired(error)) this.stop ??= { kind: 'failed', message: failureMessage(error) };
          throw error;
        }),
      );
    const results = await Promise.allSettled(walking);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * One end: fetch a batch, have the reader parse it while the worker writes the one before, and
   * fetch the next while it is being written (the cursor comes with the batch; a write only has
   * to succeed before the next one is handed over).
   */
  private async walkEnd(source: SearchAfterSource, end: StreamName, from: unknown[] | null): Promise<void> {
    let after = from;
    let writing: Promise<BatchResult> | null = null;
    try {
      while (this.stop === null) {
        const reading = this.fetchRead(source, end, this.body(end, this.pitId, after));
        // Awaited below, after the previous write: a failure meanwhile must not count as unhandled.
        reading.catch(() => undefined);
        if (writing) {
          const written = await writing;
          writing = null;
          if (this.settle(written)) return;
        }
        const batch = await reading;
        if (this.stop !== null) return;
        writing = this.write(end, batch, false);
        after = batch.meta.after;
        if (batch.meta.last) break;
      }
    } finally {
      if (writing) this.settle(await writing);
    }
  }

  private body(end: StreamName, pitId: string | null, after: unknown[] | null): SearchAfterRequestInput {
    return {
      size: this.options.batchSize,
      sort: [{ id: end }],
      queries: this.queries,
      ...(pitId !== null && { pitId }),
      ...(after !== null && { searchAfter: after as (string | number | boolean | null)[] }),
    };
  }

  /** Has the end's reader fetch a batch with the source's request, and parse, check and pack it. */
  private async fetchRead(
    source: SearchAfterSource,
    end: StreamName,
    body: SearchAfterRequestInput,
  ): Promise<ReadBatch> {
    const { readers, batchSize } = this.options;
    const batch = await source.searchAfterVia(body, (request) =>
      readers[end].call('fetchRead', { request, batchSize, key: nextBatchKey++ }),
    );
    this.pitId = batch.meta.pitId;
    return batch;
  }

  private write(end: StreamName, batch: ReadBatch, fresh: boolean): Promise<BatchResult> {
    const { meta, ...records } = batch;
    return this.options.worker.call(
      'write',
      {
        datasetId: this.point.datasetId,
        run: this.point.run,
        gen: this.point.gen,
        fresh,
        pitId: meta.pitId,
        stream: end,
        records,
        after: meta.after,
        total: meta.total,
        last: meta.last,
        nowIso: this.options.now().toISOString(),
      },
      'key' in records ? [] : packedBuffers(records),
    );
  }

  /** Takes a write's answer; true when the run is over (complete, or no longer this run's). */
  private settle(result: BatchResult): boolean {
    if (!result.stale) {
      this.latest = result.state;
      // After a pause or a failure, whoever stopped the run tells its state; a batch that landed
      // meanwhile must not tell "running" after it.
      if (this.stop === null || result.done) this.progress(result.state, result.done);
    }
    if (result.done) this.stop ??= { kind: 'done' };
    else if (result.stale) this.stop ??= { kind: 'stale' };
    return this.stop !== null;
  }

  private progress(state: DownloadState, force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastProgressMs < this.options.progressIntervalMs) return;
    this.lastProgressMs = now;
    this.options.onProgress(state);
  }
}

const isPitExpired = (error: unknown): boolean => error instanceof CoreError && error.code === 'PIT_EXPIRED';

function failureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `The download stopped: ${text} Start it again to resume.`;
}
