// The feed's request budget: a token bucket of request weight per minute, shared by every request
// the feed sends to the venue (docs/venue-feed.md, Budget).

/** A clock and a timer, so that tests can drive time by hand. */
export interface BudgetClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: BudgetClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const MINUTE_MS = 60_000;
/** After a 429 the rate drops to this share of what it was, never below `floor`. */
const DECREASE = 0.5;
/** Each minute without a 429 gives back this share of the configured rate. */
const RECOVERY_PER_MINUTE = 0.1;

export interface BudgetSnapshot {
  /** The weight the budget allows itself per minute now (the configured one, or lower after 429s). */
  weightPerMinute: number;
  /** The weight spent in the last 60 s. */
  usedLastMinute: number;
}

/**
 * The weight the feed may spend in any sliding minute. Every spend is logged with its time; `take`
 * waits until the last 60 s plus the new weight fit the rate, so no request leaves without budget
 * and no minute, however it is cut, spends more than the rate (a plain token bucket allows its
 * capacity plus a minute's refill in one minute). A 429 halves the rate and pauses sending (the
 * venue counts more than we do: another program on the same address, or a restart); the rate then
 * recovers a tenth of the configured one per quiet minute.
 */
export class RequestBudget {
  private rate: number;
  private lastPenaltyAt = Number.NEGATIVE_INFINITY;
  private recoveredAt: number;
  private blockedUntil = 0;
  /** Spent weights in the last minute: [time, weight], oldest first. */
  private readonly spent: [number, number][] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly configured: number,
    private readonly clock: BudgetClock = realClock,
  ) {
    if (!(Number.isFinite(configured) && configured > 0))
      throw new Error(`weight per minute must be a number greater than 0, not ${configured}`);
    this.rate = configured;
    this.recoveredAt = clock.now();
  }

  /**
   * Waits until `weight` fits the last minute and spends it. Callers are served in turn, so a
   * large request is not starved by small ones.
   */
  take(weight: number): Promise<void> {
    const turn = this.queue.then(() => this.wait(weight));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Gives back weight reserved but not used (an answer smaller than the worst case). */
  refund(weight: number): void {
    let left = weight;
    for (let i = this.spent.length - 1; i >= 0 && left > 0; i -= 1) {
      const entry = this.spent[i] as [number, number];
      const back = Math.min(entry[1], left);
      entry[1] -= back;
      left -= back;
    }
  }

  /** The venue answered 429: lower the rate, and send nothing for about `pauseMs` (jittered). */
  penalize(pauseMs: number): void {
    const now = this.clock.now();
    this.rate = Math.max(this.configured * 0.05, this.rate * DECREASE);
    this.lastPenaltyAt = now;
    this.recoveredAt = now;
    this.blockedUntil = Math.max(this.blockedUntil, now + pauseMs * (0.5 + Math.random()));
  }

  snapshot(): BudgetSnapshot {
    return { weightPerMinute: Math.round(this.ratePerMinute), usedLastMinute: this.used() };
  }

  /** The weight per minute allowed now (for pacing polls). */
  get ratePerMinute(): number {
    this.recover();
    return this.rate;
  }

  private async wait(weight: number): Promise<void> {
    if (weight > this.configured)
      throw new Error(
        `a request of weight ${weight} can never fit a budget of ${this.configured} per minute`,
      );
    for (;;) {
      const now = this.clock.now();
      if (now < this.blockedUntil) {
        await this.clock.sleep(this.blockedUntil - now);
        continue;
      }
      const rate = this.ratePerMinute;
      const need = Math.min(weight, rate);
      if (this.used() + need <= rate) {
        this.spent.push([now, weight]);
        return;
      }
      await this.clock.sleep(this.waitFor(rate - need));
    }
  }

  /** Milliseconds until the last minute's spend falls to `target` or below (≥ 1). */
  private waitFor(target: number): number {
    let used = this.used();
    for (const [at, w] of this.spent) {
      used -= w;
      if (used <= target) return Math.max(1, at + MINUTE_MS - this.clock.now() + 1);
    }
    return 1;
  }

  private used(): number {
    const cutoff = this.clock.now() - MINUTE_MS;
    while (this.spent.length > 0 && (this.spent[0] as [number, number])[0] <= cutoff) this.spent.shift();
    let sum = 0;
    for (const [, w] of this.spent) sum += w;
    return sum;
  }

  /** Gives back part of the rate for each quiet minute since the last 429. */
  private recover(): void {
    const now = this.clock.now();
    if (this.rate >= this.configured || now - this.lastPenaltyAt < MINUTE_MS) return;
    const minutes = (now - this.recoveredAt) / MINUTE_MS;
    this.recoveredAt = now;
    this.rate = Math.min(this.configured, this.rate + this.configured * RECOVERY_PER_MINUTE * minutes);
  }
}
