import type { MessagePort } from 'node:worker_threads';
import type { HttpRequest } from '../client/http';
import type { RangeCondition } from '../../../shared/api/common';
import type { AppErrorCode } from '../../../shared/result';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';

/**
 * The messages between StatisticsDatasets (the core's thread) and the dataset worker, which owns
 * the datasets' SQLite file: `{id, op, args}` in, `{id, ok, value | error, usage}` out.
 */

/** A dataset: one protocol's statistics for one window, downloaded for one profile. */
export interface DatasetRef {
  profileId: string;
  protocol: string;
  window: string;
}

/**
 * The two ends a download walks from (docs/core-cache.md): `asc` by id from the smallest, `desc`
 * from the largest, over the same point in time, until they meet.
 */
export type StreamName = 'asc' | 'desc';

/** Where one end of a download stands: the service's cursor and the last id it stored. */
export interface StreamCursor {
  after: unknown[] | null;
  lastId: string | null;
  done: boolean;
}

export type Cursors = Record<StreamName, StreamCursor | null>;

/** What a (re)started download continues from. `pitId` null: start a new generation. */
export interface ResumePoint {
  datasetId: number;
  /** This run's number: batches of any other run of the dataset are refused. */
  run: number;
  gen: number;
  pitId: string | null;
  cursors: Cursors;
  state: DownloadState;
}

/**
 * Records packed to cross between threads cheaply: three strings per record would be cloned one
 * by one (thousands of allocations a batch on every thread they pass), so they travel as one text
 * with their end offsets, and the numbers as one Float64Array; both arrays are transferred.
 */
export interface PackedRecords {
  count: number;
  /** Each record's id, account and JSON rest without its numbers (fields.ts), record after record. */
  text: string;
  /** Three per record: where its id, its account and its rest end in `text`. */
  ends: Uint32Array;
  /** COLUMN_COUNT numbers per record, row after row; NaN for null. */
  numbers: Float64Array;
}

/** A batch the reader sent to the dataset worker over their own channel (batch-channel.ts). */
export interface BatchRef {
  key: number;
}

/** One batch of records as the service sent it, with the cursor that follows it. */
export interface BatchWrite {
  datasetId: number;
  run: number;
  gen: number;
  /** First batch of a new point in time: replaces what the unfinished generation had, atomically. */
  fresh: boolean;
  pitId: string;
  stream: StreamName;
  records: PackedRecords | BatchRef;
  after: unknown[] | null;
  /** Records the service has for the dataset. */
  total: number;
  /** The last batch of its end: shorter than asked, or answered with no cursor to go on from. */
  last: boolean;
  nowIso: string;
}

/** What a batch says about the download: its point in time and the cursor after it. */
export interface BatchMeta {
  pitId: string;
  after: unknown[] | null;
  total: number;
  /** Records in the batch. */
  count: number;
  /** The last batch of its end: shorter than asked, or answered with no cursor to go on from. */
  last: boolean;
}

/**
 * A batch read by the batch reader: its records, packed (or, when the reader is connected to the
 * dataset worker, the key they were sent there under), and what it says about the download.
 */
export type ReadBatch = (PackedRecords | BatchRef) & { meta: BatchMeta };

export interface BatchResult {
  state: DownloadState;
  gen: number;
  /** The dataset is complete (the two ends met, or one reached the end). */
  done: boolean;
  /** The batch belongs to a download that was paused, deleted or restarted: it was not written. */
  stale: boolean;
}

/** A leaderboard request evaluated over downloaded datasets. */
export interface LeaderboardQuery {
  profileId: string;
  protocols: string[];
  window: string;
  ranges: RangeCondition[];
  sort: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
  /** True: fail when a dataset is missing; false: answer null so the caller asks the service. */
  required: boolean;
}

export interface LeaderboardAnswer {
  rows: Record<string, unknown>[];
  total: number;
  /** When the oldest of the datasets became complete: its data is as of then. */
  fetchedAt: string;
}

/**
 * The worker's answer, packed: each row's JSON rest, its numbers and its percentiles as typed
 * arrays (transferred). The core's thread builds the row objects (fields.ts, joinRecord): about
 * what deserialising cloned objects would cost it, while the worker neither builds objects nor
 * formats a number.
 */
export interface LeaderboardPacked {
  rests: string[];
  /** COLUMN_COUNT numbers per row. */
  numbers: Float64Array;
  /** One percentile per ranking key per row. */
  rankings: Float64Array;
  total: number;
  fetchedAt: string;
}

/** Datasets and stored records per profile. */
export type Usage = Record<string, { datasets: number; records: number }>;

/** Every operation: its arguments and its answer. */
export interface WorkerOps {
  list: { args: { profileId: string }; result: DownloadState[] };
  begin: { args: { ref: DatasetRef; nowIso: string }; result: ResumePoint };
  write: { args: BatchWrite; result: BatchResult };
  /**
   * Fetches one search-after batch (the request built by the core's service client, with its
   * credentials) and parses, checks and packs the answer for `write` (batch-bytes.ts). Run by a
   * worker of its own, the batch reader, so that reading one batch and writing another use two
   * threads and the answers' megabytes never touch the core's thread. `batchSize` is what was
   * asked for.
   */
  fetchRead: { args: { request: HttpRequest; batchSize: number; key: number }; result: ReadBatch };
  /**
   * Each end of the channel between a batch reader (the one of stream `from`) and the dataset
   * worker (batch-channel.ts), sent to both before a download runs.
   */
  connect: { args: { port: MessagePort; from: StreamName }; result: null };
  stop: {
    args: { ref: DatasetRef; state: 'paused' | 'failed'; message: string };
    result: DownloadState | null;
  };
  delete: { args: { ref: DatasetRef }; result: null };
  clear: { args: { profileId?: string }; result: null };
  query: { args: LeaderboardQuery; result: LeaderboardPacked | null };
  close: { args: Record<string, never>; result: null };
}
export type WorkerOp = keyof WorkerOps;

export interface WorkerRequest<O extends WorkerOp = WorkerOp> {
  id: number;
  op: O;
  args: WorkerOps[O]['args'];
}

export type WorkerResponse =
  | { id: number; ok: true; value: unknown; usage: Usage | null }
  | { id: number; ok: false; error: WorkerError; usage: Usage | null };

/**
 * A failure as it crosses back: a service's answer (a ServiceRequestError, fetched by the batch
 * reader) keeps its status and Retry-After, so that the core retries and logs in again as for
 * any call.
 */
export interface WorkerError {
  code: AppErrorCode;
  message: string;
  service?: { status: number | null; retryAfterMs: number | null };
}

/** What the worker is started with: the datasets' file, or null for a batch reader (no file). */
export interface WorkerData {
  path: string | null;
}

/** What a worker thread runs its messages through (DatasetHost, or BatchReaderHost: it may wait). */
export interface WorkerHost {
  handle<O extends WorkerOp>(
    op: O,
    args: WorkerOps[O]['args'],
  ):
    | { value: WorkerOps[O]['result']; usage: Usage | null }
    | Promise<{ value: WorkerOps[O]['result']; usage: Usage | null }>;
  close(): void;
}
