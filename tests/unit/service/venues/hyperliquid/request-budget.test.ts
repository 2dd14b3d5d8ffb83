// The feed's request budget on a hand-driven clock: no sliding minute ever spends more than the
// rate, refunds give weight back at once, and a 429 lowers the rate, pauses, and recovers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeededRandom } from '../../../../../src/service/fixture/random';
import {
  RequestBudget,
  type BudgetClock,
} from '../../../../../src/service/venues/hyperliquid/request-budget';

const MINUTE = 60_000;

/** Time moves only when the budget sleeps, or when the test says so. */
class HandClock implements BudgetClock {
  constructor(public ms = 1_000_000) {}
  now = (): number => this.ms;
  sleep = async (ms: number): Promise<void> => {
    this.ms += ms;
  };
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** The largest weight spent in any 60 s window (a window ends at each spend, which is where maxima are). */
function maxInAnyMinute(spends: readonly { at: number; weight: number }[]): number {
  let largest = 0;
  for (const end of spends) {
    let sum = 0;
    for (const s of spends) if (s.at > end.at - MINUTE && s.at <= end.at) sum += s.weight;
    largest = Math.max(largest, sum);
  }
  return largest;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RequestBudget', () => {
  it('never spends more than the rate in any sliding minute, and waits no longer than it must', async () => {
    const clock = new HandClock();
    const budget = new RequestBudget(1_200, clock);
    const rng = new SeededRandom(11);
    const spends: { at: number; weight: number }[] = [];
    let waited = 0;
    for (let i = 0; i < 400; i += 1) {
      clock.advance(rng.int(0, 4_000));
      const reserved = rng.int(2, 140);
      const before = clock.ms;
      await budget.take(reserved);
      waited += clock.ms - before;
      // Answers are usually smaller than the worst case reserved for them.
      const used = rng.chance(0.7) ? rng.int(2, reserved) : reserved;
      budget.refund(reserved - used);
      spends.push({ at: clock.ms, weight: used });
    }
    expect(spends).toHaveLength(400);
    // The reservation is what must fit: it is spent before the answer says how much was used.
    const largest = maxInAnyMinute(spends);
    expect(largest).toBeLessThanOrEqual(1_200);
    // The budget was the limit, not the pace of the requests: it made them wait, and filled minutes.
    expect(waited).toBeGreaterThan(MINUTE);
    expect(largest).toBeGreaterThan(1_000);
    expect(budget.snapshot().usedLastMinute).toBeLessThanOrEqual(1_200);
  });

  it('counts reservations whole until refunded: a refund frees its weight at once', async () => {
    const clock = new HandClock();
    const budget = new RequestBudget(100, clock);
    const t0 = clock.ms;
    await budget.take(80);
    budget.refund(60);
    await budget.take(80);
    expect(clock.ms).toBe(t0);
    expect(budget.snapshot()).toEqual({ weightPerMinute: 100, usedLastMinute: 100 });
    // Nothing refunded: the next one waits until the spends leave the minute.
    await budget.take(10);
    expect(clock.ms).toBeGreaterThan(t0 + MINUTE - 1);
    expect(clock.ms).toBeLessThanOrEqual(t0 + MINUTE + 1);
    expect(budget.snapshot().usedLastMinute).toBe(10);
  });

  it('serves callers in turn: a large request is not starved by small ones', async () => {
    const clock = new HandClock();
    const budget = new RequestBudget(100, clock);
    await budget.take(90);
    const order: string[] = [];
    const large = budget.take(60).then(() => order.push(`large@${clock.ms}`));
    const small = budget.take(5).then(() => order.push(`small@${clock.ms}`));
    await Promise.all([large, small]);
    expect(order.map((o) => o.split('@')[0])).toEqual(['large', 'small']);
  });

  it('refuses a request heavier than the whole budget', async () => {
    const budget = new RequestBudget(100, new HandClock());
    await expect(budget.take(101)).rejects.toThrow(/can never fit a budget of 100/);
    // The queue is not stuck behind it.
    await budget.take(100);
  });

  it('a 429 halves the rate (to 5 % at least), pauses sending, and the rate recovers a tenth a quiet minute', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // the jitter's middle: the pause is exactly pauseMs
    const clock = new HandClock();
    const budget = new RequestBudget(1_200, clock);
    const t0 = clock.ms;
    budget.penalize(10_000);
    expect(budget.snapshot().weightPerMinute).toBe(600);
    await budget.take(10);
    expect(clock.ms).toBe(t0 + 10_000);
    // The lowered rate is what the minute may hold now: 600, of which 10 are spent.
    for (let i = 0; i < 59; i += 1) await budget.take(10);
    expect(clock.ms).toBe(t0 + 10_000);
    await budget.take(10);
    expect(clock.ms).toBeGreaterThan(t0 + 10_000 + MINUTE - 1);
    // That minute was quiet (no 429): a tenth of 1,200 per minute since the 429 came back.
    expect(budget.snapshot().weightPerMinute).toBe(600 + Math.round((120 * (clock.ms - t0)) / MINUTE));

    // 429 after 429 halves it again and again, down to 5 % of the configured rate.
    for (const expected of [370, 185, 93, 60, 60]) {
      budget.penalize(1_000);
      expect(budget.snapshot().weightPerMinute).toBe(expected);
    }
    const penalized = clock.ms;
    clock.ms = penalized + MINUTE - 1;
    expect(budget.snapshot().weightPerMinute).toBe(60); // no recovery within the minute after a 429
    clock.ms = penalized + MINUTE;
    expect(budget.snapshot().weightPerMinute).toBe(180); // a quiet minute: +10 % of 1,200
    clock.ms = penalized + 3 * MINUTE;
    expect(budget.snapshot().weightPerMinute).toBe(420);
    clock.ms = penalized + 30 * MINUTE;
    expect(budget.snapshot().weightPerMinute).toBe(1_200); // never above the configured rate
  });

  it('at a rate lowered below a request, that request waits for an empty minute', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const clock = new HandClock();
    const budget = new RequestBudget(1_200, clock);
    await budget.take(100);
    const spentAt = clock.ms;
    for (let i = 0; i < 5; i += 1) budget.penalize(1);
    expect(budget.snapshot().weightPerMinute).toBe(60);
    await budget.take(120);
    expect(clock.ms).toBeGreaterThan(spentAt + MINUTE - 1);
    expect(budget.snapshot().usedLastMinute).toBe(120);
  });
});
