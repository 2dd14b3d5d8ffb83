/**
 * Answers of statistic reads, keyed by the statistics generation they were computed from and the
 * parsed request (never its text: whitespace or key order must not make new entries). A new
 * generation makes every older entry unreachable, so nothing is ever served stale; the least
 * recently used entries go first when the cache holds more than `maxEntries` answers or more
 * than `maxBytes` bytes, and an answer bigger than the whole budget is served but not kept.
 * (Search engines cache per refresh the same way.)
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  private held = 0;
  hits = 0;
  misses = 0;

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
}

const costOf = (key: string, value: Buffer): number => value.length + key.length * 2;
