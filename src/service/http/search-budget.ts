import type { FastifyRequest } from 'fastify';
import { ServiceError } from './errors';
import { callerOf } from './rate-limit';
import { TokenBuckets } from './token-buckets';

/** How much of the service's thread one caller's statistics searches may hold (docs/security.md, "Search time"). */
export interface SearchBudgetOptions {
  /** Milliseconds of search a caller earns back each second. */
  msPerSecond: number;
  /** The most a caller may have in hand; a caller starts with it. */
  burstMs: number;
  /** The service's clock (ms), which refills: tests move it. */
  now: () => number;
  /** The clock that times a search (ms, performance.now): tests replace it. */
  clock: () => number;
}

/**
 * A budget per caller (the rate limit's caller: the user, the API key, else the address) of the
 * time its statistics searches held the service's one thread. A search is never cut short: its
 * time is charged when it ends, and while a caller's account is below zero its further searches
 * answer 429 with `Retry-After`. Its other requests (positions, copy trades, /health) are not
 * refused, and other callers are not touched. The request rate limit cannot do this: a search
 * bounding a hundred fields nobody sorted holds the thread for seconds at 2,000,000 records,
 * and fifty of them a second were within it.
 */
export class SearchBudget {
  /** Each caller's account, in milliseconds. */
  private readonly accounts: TokenBuckets;

  constructor(private readonly options: SearchBudgetOptions) {
    this.accounts = new TokenBuckets(options.msPerSecond, options.burstMs);
  }

  /** Runs `search` for `request`'s caller, unless its budget is spent; charges the time it took. */
  run<T>(request: FastifyRequest, search: () => T): T {
    const charge = this.start(request);
    try {
      return search();
    } finally {
      charge();
    }
  }

  /**
   * The same for a search that awaits (GraphQL's execution): only promises already settled are
   * awaited within it, so its wall time is the thread's time, give or take another request's
   * microtasks.
   */
  async runAsync<T>(request: FastifyRequest, search: () => Promise<T>): Promise<T> {
    const charge = this.start(request);
    try {
      return await search();
    } finally {
      charge();
    }
  }

  /** Refuses a caller whose budget is spent; else starts the clock and answers what charges it. */
  private start(request: FastifyRequest): () => void {
    const caller = callerOf(request);
    this.refuseWhenSpent(caller);
    const started = this.options.clock();
    return () => this.charge(caller, this.options.clock() - started);
  }

  private refuseWhenSpent(caller: string): void {
    const now = this.options.now();
    if (this.accounts.held(caller, now) >= 0) return;
    const { msPerSecond, burstMs } = this.options;
    const waitS = this.accounts.waitS(caller, 0, now);
    throw new ServiceError(
      'RATE_LIMITED',
      `statistics searches by this caller held the service for more than its budget: at most ` +
        `${msPerSecond} ms a second after a first ${burstMs} ms; retry after ${waitS} s`,
      { headers: { 'retry-after': String(waitS) } },
    );
  }

  private charge(caller: string, ms: number): void {
    this.accounts.take(caller, Math.max(0, ms), this.options.now());
  }
}
