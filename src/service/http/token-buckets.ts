/**
 * A token bucket per key: `perSecond` tokens come back each second up to `burst`, and a key never
 * seen holds `burst`. The rate limit counts requests in them (rate-limit.ts), the search budget
 * milliseconds of the thread (search-budget.ts). A bucket may go below zero (a search is charged
 * after it ran); it then refills from there.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** The tokens `key` holds at `nowMs`. */
  held(key: string, nowMs: number): number {
    return this.refilled(this.buckets.get(key), nowMs).tokens;
  }

  /** Takes `amount` tokens from `key` at `nowMs` (down past zero if need be). */
  take(key: string, amount: number, nowMs: number): void {
    const bucket = this.refilled(this.buckets.get(key), nowMs);
    bucket.tokens -= amount;
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) this.forgetFull(nowMs);
  }

  /** Whole seconds until `key` holds `wanted` tokens again (at least 1). */
  waitS(key: string, wanted: number, nowMs: number): number {
    return Math.max(1, Math.ceil((wanted - this.held(key, nowMs)) / this.perSecond));
  }

  private refilled(bucket: Bucket | undefined, nowMs: number): Bucket {
    if (!bucket) return { tokens: this.burst, updatedMs: nowMs };
    const elapsedS = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    return { tokens: Math.min(this.burst, bucket.tokens + elapsedS * this.perSecond), updatedMs: nowMs };
  }

  /** Buckets that have refilled completely carry no state worth keeping. */
  private forgetFull(nowMs: number): void {
    for (const [key, bucket] of this.buckets)
      if (this.refilled(bucket, nowMs).tokens >= this.burst) this.buckets.delete(key);
  }
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Past this many keys, the full buckets are dropped. */
const MAX_BUCKETS = 10_000;
