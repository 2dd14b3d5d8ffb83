/**
 * Answers of statistic reads, keyed by the statistics generation they were computed from and the
 * parsed request (never its text: whitespace or key order must not make new entries). A new
 * generation makes every older entry unreachable, so nothing is ever served stale; the least
 * recently used entries go first when the cache holds more than `maxEntries` answers or more
 * than `maxBytes` bytes, and an answer bigger than the whole budget is served but not kept.
 * (Search engines cache per refresh the same way.)
 *
 * An answer is kept only from the second time its key is asked (an admission filter, the
 * "doorkeeper" of TinyLFU caches): a trader tuning ranges sends a query once, and keeping every
 * such answer replaced the whole cache (64 MB) every couple of seconds under a load of new
 * queries. That churn of surviving 36 KB answers made V8 run a full mark-compact every ~0.3 s,
 * and a quarter of a REST miss's CPU went to it (docs/statistics.md, "The answer cache").
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  private held = 0;
  /** Hashes of keys asked once, by slot: a fixed table, so noting a key allocates nothing. */
  private readonly seen = new Uint32Array(SEEN_SLOTS);
  hits = 0;
  misses = 0;
  /** Answers computed and not kept because their key was asked for the first time. */
  notAdmitted = 0;

  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** Answers held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held, keys included. */
  get bytes(): number {
    return this.held;
  }

  /** The cached answer for `key`, or `compute()`'s, remembered as bytes ready for the socket. */
  getOrCompute(key: string, compute: () => string | Buffer): Buffer {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.hits += 1;
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    this.misses += 1;
    const computed = compute();
    const value = typeof computed === 'string' ? Buffer.from(computed, 'utf8') : computed;
    if (!this.askedBefore(key)) {
      this.notAdmitted += 1;
      return value;
    }
    const cost = costOf(key, value);
    if (cost > this.maxBytes) return value;
    this.entries.set(key, value);
    this.held += cost;
    while (this.entries.size > this.maxEntries || this.held > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.held -= costOf(oldest, this.entries.get(oldest)!);
      this.entries.delete(oldest);
    }
    return value;
  }

  /**
   * Whether `key` was noted by an earlier miss; notes it if not. Two keys whose hashes share a
   * slot replace each other (the table remembers recent keys only), and two keys with the same
   * 32-bit hash count as one: either way an answer is kept or not a miss too early, never wrong.
   */
  private askedBefore(key: string): boolean {
    const hash = fnv1a(key);
    const slot = hash & (SEEN_SLOTS - 1);
    if (this.seen[slot] === hash) return true;
    this.seen[slot] = hash;
    return false;
  }
}

/** Keys remembered by the admission filter: enough for the distinct queries of a minute of a busy load. */
const SEEN_SLOTS = 1 << 16;

/** The 32-bit FNV-1a hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const costOf = (key: string, value: Buffer): number => value.length + key.length * 2;
