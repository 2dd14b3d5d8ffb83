import type { FastifyRequest } from 'fastify';
import { ServiceError } from './errors';
import { addressOf, callerOf } from './rate-limit';
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
 * time its statistics searches held the service's one thread, and the same budget per address
 * block (address-block.ts) that every caller from it shares: a wallet costs nothing to make, so
 * without it one client with twenty wallets had twenty budgets. A search is never cut short: its
 * time is charged to both accounts when it ends, and while either is below zero the caller's
 * further searches answer 429 with `Retry-After`. Its other requests (positions, copy trades,
 * /health) are not refused, nor are callers from other addresses. The request rate limit cannot
 * do this: a search bounding a hundred fields nobody sorted holds the thread for seconds at
 * 2,000,000 records, and fifty of them a second were within it.
 */
export class SearchBudget {
  /** Each caller's and each address block's account, in milliseconds. */
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

  /**
   * Refuses a search when its caller's account or its address block's is spent; else starts the
   * clock and answers what charges both.
   */
  private start(request: FastifyRequest): () => void {
    const caller = callerOf(request);
    const address = addressOf(request);
    const accounts = caller === address ? [caller] : [caller, address];
    this.refuseWhenSpent(accounts);
    const started = this.options.clock();
    return () => {
      const ms = Math.max(0, this.options.clock() - started);
      const now = this.options.now();
      for (const account of accounts) this.accounts.take(account, ms, now);
    };
  }

  /** Throws 429 when any of `accounts` is below zero, naming it and the wait for all to be back at zero. */
  private refuseWhenSpent(accounts: readonly string[]): void {
    const now = this.options.now();
    const spent = accounts.filter((account) => this.accounts.held(account, now) < 0);
    if (spent.length === 0) return;
    const { msPerSecond, burstMs } = this.options;
    const waitS = Math.max(...spent.map((account) => this.accounts.waitS(account, 0, now)));
    const whose = spent[0] === accounts[0] ? 'by this caller' : "from this caller's address";
    throw new ServiceError(
      'RATE_LIMITED',
      `statistics searches ${whose} held the service for more than their budget: at most ` +
        `${msPerSecond} ms a second after a first ${burstMs} ms; retry after ${waitS} s`,
      { headers: { 'retry-after': String(waitS) } },
    );
  }
}
