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

  /** How many buckets are kept (tests read it). */
  get size(): number {
    return this.buckets.size;
  }

  /** The tokens `key` holds at `nowMs`. */
  held(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key);
    return bucket ? this.refilled(bucket, nowMs) : this.burst;
  }

  /** Takes `amount` tokens from `key` at `nowMs` (down past zero if need be). */
  take(key: string, amount: number, nowMs: number): void {
    // Updated in place: the rate limit and the search budget take on every request.
    const bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = this.refilled(bucket, nowMs) - amount;
      // A clock that stepped back must not refill the same time twice.
      bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
      return;
    }
    this.buckets.set(key, { tokens: this.burst - amount, updatedMs: nowMs });
    if (this.buckets.size > MAX_BUCKETS) this.forgetFull(nowMs);
  }

  /** Whole seconds until `key` holds `wanted` tokens again (at least 1). */
  waitS(key: string, wanted: number, nowMs: number): number {
    return Math.max(1, Math.ceil((wanted - this.held(key, nowMs)) / this.perSecond));
  }

  /** What `bucket` holds at `nowMs`: what it held, refilled since, at most the burst. */
  private refilled(bucket: Bucket, nowMs: number): number {
    const elapsedS = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    return Math.min(this.burst, bucket.tokens + elapsedS * this.perSecond);
  }

  /** Buckets that have refilled completely carry no state worth keeping. */
  private forgetFull(nowMs: number): void {
    for (const [key, bucket] of this.buckets)
      if (this.refilled(bucket, nowMs) >= this.burst) this.buckets.delete(key);
  }
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Past this many keys, the full buckets are dropped. */
const MAX_BUCKETS = 10_000;
