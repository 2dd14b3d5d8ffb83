import type Database from 'better-sqlite3';
import { prepareCached } from '../../../node/sqlite';

/** One cached answer of a read channel. */
export interface CachedAnswer {
  value: unknown;
  fetchedAt: string;
}

/**
 * The last answer of every read request, per profile, with least-recently-used eviction past a
 * size limit. Answers are small (one page); whole datasets for offline use live elsewhere.
 */
export class ResponseCache {
  /**
   * The bytes of every cached answer, counted once and then kept up to date by this class (the
   * only writer of the table): evictTo runs after every cache write and must not sum the table.
   */
  private totalBytes: number | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached answer for `key`, marking it used. */
  get(profileId: string, key: string): CachedAnswer | null {
    const row = prepareCached(
      this.db,
      'SELECT json, fetched_at FROM responses WHERE profile_id = ? AND key = ?',
    ).get(profileId, key) as { json: string; fetched_at: string } | undefined;
    if (!row) return null;
    prepareCached(this.db, 'UPDATE responses SET used_at_ms = ? WHERE profile_id = ? AND key = ?').run(
      this.now(),
      profileId,
      key,
    );
    return { value: JSON.parse(row.json) as unknown, fetchedAt: row.fetched_at };
  }

  /** Stores the answer for `key`, replacing the previous one. */
  put(profileId: string, key: string, channel: string, value: unknown, fetchedAt: string): void {
    const json = JSON.stringify(value);
    const bytes = Buffer.byteLength(json) + key.length;
    if (this.totalBytes !== null) {
      const before = prepareCached(
        this.db,
        'SELECT bytes FROM responses WHERE profile_id = ? AND key = ?',
        'pluck',
      ).get(profileId, key) as number | undefined;
      this.totalBytes += bytes - (before ?? 0);
    }
    prepareCached(
      this.db,
      `INSERT INTO responses (profile_id, key, channel, json, fetched_at, used_at_ms, bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, key) DO UPDATE SET
         channel = excluded.channel, json = excluded.json, fetched_at = excluded.fetched_at,
         used_at_ms = excluded.used_at_ms, bytes = excluded.bytes`,
    ).run(profileId, key, channel, json, fetchedAt, this.now(), bytes);
  }

  /** Bytes and entries of every profile's cached answers. */
  usage(): { bytes: number; entries: number } {
    const row = prepareCached(
      this.db,
      'SELECT COALESCE(SUM(bytes), 0) AS bytes, COUNT(*) AS entries FROM responses',
    ).get() as {
      bytes: number;
      entries: number;
    };
    return row;
  }

  /** Drops the least recently used answers until they fit in `limitBytes`; returns how many went. */
  evictTo(limitBytes: number): number {
    this.totalBytes ??= this.usage().bytes;
    let bytes = this.totalBytes;
    if (bytes <= limitBytes) return 0;
    const oldest = prepareCached(
      this.db,
      'SELECT profile_id, key, bytes FROM responses ORDER BY used_at_ms ASC',
    ).iterate() as IterableIterator<{
      profile_id: string;
      key: string;
      bytes: number;
    }>;
    const victims: { profile_id: string; key: string }[] = [];
    for (const row of oldest) {
      if (bytes <= limitBytes) break;
      victims.push(row);
      bytes -= row.bytes;
    }
    const remove = prepareCached(this.db, 'DELETE FROM responses WHERE profile_id = ? AND key = ?');
    this.db.transaction(() => victims.forEach((v) => remove.run(v.profile_id, v.key)))();
    this.totalBytes = bytes;
    return victims.length;
  }

  /** Forgets one profile's answers of the given channels (after a write changed what they show). */
  clearChannels(profileId: string, channels: readonly string[]): void {
    const remove = prepareCached(this.db, 'DELETE FROM responses WHERE profile_id = ? AND channel = ?');
    this.db.transaction(() => channels.forEach((channel) => remove.run(profileId, channel)))();
    this.totalBytes = null;
  }

  /** Forgets one profile's answers, or every profile's. */
  clear(profileId?: string): void {
    if (profileId === undefined) prepareCached(this.db, 'DELETE FROM responses').run();
    else prepareCached(this.db, 'DELETE FROM responses WHERE profile_id = ?').run(profileId);
    this.totalBytes = null;
  }
}
