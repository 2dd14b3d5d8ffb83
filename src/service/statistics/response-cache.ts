/**
 * Answers of statistic reads, keyed by the statistics generation they were computed from. A new
 * generation makes every older entry unreachable, so nothing is ever served stale; the least
 * recently used entries go first when the cache is full. (Search engines cache per refresh the
 * same way.)
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  hits = 0;
  misses = 0;

  constructor(private readonly maxEntries = 2_000) {}

  /** The cached answer for `key`, or `compute()`'s, remembered as bytes ready for the socket. */
  getOrCompute(key: string, compute: () => string): Buffer {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.hits += 1;
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    this.misses += 1;
    const value = Buffer.from(compute(), 'utf8');
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}
