import type Database from 'better-sqlite3';
import { CoreError } from '../errors';
import { ChunkScan } from './chunk-scan';
import { DatasetDb, type LiveDataset } from './dataset-db';
import { openDatasetDatabase } from './dataset-schema';
import { markInterrupted, usageOf } from './download-states';
import { DatasetIndex } from './dataset-index';
import { mergeOrdered } from './leaderboard-order';
import type { LeaderboardPacked, LeaderboardQuery, Usage, WorkerOp, WorkerOps } from './worker-messages';
import { COLUMN_COUNT } from './fields';
import { RANKING_KEYS } from '../../../shared/api/statistics';

/** Loaded datasets beyond this many bytes are dropped, least recently used first. */
const LOADED_BYTES_MAX = 512 * 1024 * 1024;

/** Operations that change what is stored: their answers carry the new usage. */
const CHANGES: ReadonlySet<WorkerOp> = new Set(['begin', 'write', 'stop', 'delete', 'clear']);

/**
 * What the dataset worker does with each message (kept apart from the thread plumbing so that it
 * can be tested in-process): the SQL store, and the datasets loaded in memory for queries.
 */
export class DatasetHost {
  private readonly db: Database.Database;
  private readonly store: DatasetDb;
  private readonly loaded = new Map<string, DatasetIndex>();

  constructor(path: string) {
    this.db = openDatasetDatabase(path);
    // Whatever was running belonged to a process that is gone.
    markInterrupted(this.db);
    this.store = new DatasetDb(this.db);
  }

  /** Runs one operation; the usage is set when it changed what is stored. */
  handle<O extends WorkerOp>(
    op: O,
    args: WorkerOps[O]['args'],
  ): { value: WorkerOps[O]['result']; usage: Usage | null } {
    const value = this.run(op, args);
    return { value, usage: CHANGES.has(op) ? usageOf(this.db) : null };
  }

  close(): void {
    this.store.batches.close();
    this.loaded.clear();
    this.db.close();
  }

  private run<O extends WorkerOp>(op: O, args: WorkerOps[O]['args']): WorkerOps[O]['result'] {
    type Result = WorkerOps[O]['result'];
    switch (op) {
      case 'list': {
        const a = args as WorkerOps['list']['args'];
        return this.store.list(a.profileId) as Result;
      }
      case 'begin': {
        const a = args as WorkerOps['begin']['args'];
        return this.store.begin(a.ref, a.nowIso) as Result;
      }
      case 'write': {
        const result = this.store.write(args as WorkerOps['write']['args']);
        if (result.done) this.forget((args as WorkerOps['write']['args']).datasetId);
        return result as Result;
      }
      case 'stop': {
        const a = args as WorkerOps['stop']['args'];
        return this.store.stop(a.ref, a.state, a.message) as Result;
      }
      case 'delete': {
        const id = this.store.delete((args as WorkerOps['delete']['args']).ref);
        if (id !== null) this.forget(id);
        return null as Result;
      }
      case 'clear': {
        for (const ref of this.store.refs((args as WorkerOps['clear']['args']).profileId)) {
          const id = this.store.delete(ref);
          if (id !== null) this.forget(id);
        }
        return null as Result;
      }
      case 'query':
        return this.query(args as LeaderboardQuery) as Result;
      case 'connect': {
        const { port, from } = args as WorkerOps['connect']['args'];
        this.store.batches.connect(from, port);
        return null as Result;
      }
      case 'close':
        return null as Result;
      default:
        throw new CoreError('INTERNAL', `The dataset worker does not know the operation ${String(op)}.`);
    }
  }

  /**
   * A leaderboard page over complete datasets: each dataset filters and sorts its own records;
   * with several protocols their first offset + limit rows merge in the same order as the service's.
   */
  private query(q: LeaderboardQuery): LeaderboardPacked | null {
    const lives: LiveDataset[] = [];
    const missing: string[] = [];
    for (const protocol of q.protocols) {
      const live = this.store.live({ profileId: q.profileId, protocol, window: q.window });
      if (live) lives.push(live);
      else missing.push(protocol);
    }
    if (missing.length > 0) {
      if (!q.required) return null;
      throw new CoreError(
        'NOT_FOUND',
        `${missing.join(', ')} ${q.window} ${missing.length === 1 ? 'has' : 'have'} not been downloaded completely for offline use; download ${missing.length === 1 ? 'it' : 'them'} first.`,
      );
    }
    const end = q.offset + q.limit;
    const parts = lives.map((live) => {
      const index = this.index(live);
      const total = index.count(q.ranges);
      const picked = index.page(q.ranges, q.sort, lives.length === 1 ? q.offset : 0, end);
      return { live, index, total, picked };
    });
    type Part = (typeof parts)[number];
    const page: { part: Part; i: number }[] =
      parts.length === 1
        ? (parts[0] as Part).picked.map((i) => ({ part: parts[0] as Part, i }))
        : mergeOrdered(
            parts.map((part) => part.picked.map((i) => ({ part, i }))),
            ({ part, i }) => ({
              value: part.index.sortValue(q.sort.field, i),
              id: part.index.id(i),
              protocol: part.live.protocol,
            }),
            q.sort.direction,
            end,
          ).slice(q.offset);
    const rests = new Array<string>(page.length);
    const numbers = new Float64Array(page.length * COLUMN_COUNT);
    const rankings = new Float64Array(page.length * RANKING_KEYS.length);
    for (const part of parts) {
      const mine = page.map((p, at) => ({ ...p, at })).filter((p) => p.part === part);
      if (mine.length === 0) continue;
      const seqs = mine.map((p) => part.index.seq(p.i));
      const stored = part.index.records(seqs, (missing) => this.store.records(missing));
      const ranks = new Float64Array(mine.length * RANKING_KEYS.length);
      part.index.rankings(
        mine.map((p) => p.i),
        ranks,
        0,
      );
      mine.forEach((p, k) => {
        const record = stored.get(seqs[k] as number);
        if (!record) throw new CoreError('INTERNAL', 'A downloaded record is missing from its dataset.');
        rests[p.at] = record.rest;
        const bytes = record.numbers;
        for (let f = 0; f < COLUMN_COUNT; f += 1)
          numbers[p.at * COLUMN_COUNT + f] = bytes.readDoubleLE(f * 8);
        rankings.set(
          ranks.subarray(k * RANKING_KEYS.length, (k + 1) * RANKING_KEYS.length),
          p.at * RANKING_KEYS.length,
        );
      });
    }
    this.evict();
    const fetchedAt = lives.map((l) => l.completedAt).sort()[0] as string;
    return { rests, numbers, rankings, total: parts.reduce((sum, p) => sum + p.total, 0), fetchedAt };
  }

  /** The dataset loaded in memory (its ids; its columns are read as queries name them) on first use. */
  private index(live: LiveDataset): DatasetIndex {
    const key = `${live.datasetId}|${live.gen}`;
    let index = this.loaded.get(key);
    if (index) {
      this.loaded.delete(key);
      this.loaded.set(key, index);
      return index;
    }
    const scan = new ChunkScan(this.db, live.datasetId, live.gen);
    index = new DatasetIndex(
      live.records,
      { protocol: live.protocol, type: live.window },
      {
        columns: (fields) => scan.columns(fields),
        ranking: (name) => {
          const bytes = this.store.column(live.datasetId, live.gen, name);
          return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        },
        texts: (name) => scan.texts(name),
        seqs: () => scan.seqs(),
      },
    );
    this.loaded.set(key, index);
    return index;
  }

  private evict(): void {
    let bytes = 0;
    for (const index of this.loaded.values()) bytes += index.memoryBytes();
    for (const [key, index] of this.loaded) {
      if (bytes <= LOADED_BYTES_MAX || this.loaded.size <= 1) break;
      bytes -= index.memoryBytes();
      this.loaded.delete(key);
    }
  }

  private forget(datasetId: number): void {
    for (const key of [...this.loaded.keys()]) if (key.startsWith(`${datasetId}|`)) this.loaded.delete(key);
  }
}
