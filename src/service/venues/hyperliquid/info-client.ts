// The venue's info API (POST {base}/info), behind the request budget: every request reserves its
// worst-case weight before it leaves and gives back what its answer did not use.
import type { RequestBudget } from './request-budget';
import { answerWeight, baseWeight, worstAnswerWeight } from './request-weights';

/** The venue could not be reached (no network, refused, timed out). */
export class VenueUnreachableError extends Error {
  override name = 'VenueUnreachableError';
}

/** The venue answered 429: the budget is lowered and paused; try again later. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}

/** The venue answered with an error status or something that is not JSON. */
export class VenueAnswerError extends Error {
  override name = 'VenueAnswerError';
}

/** How long a request may take before it counts as unreachable. */
const TIMEOUT_MS = 20_000;
/** Pause after a 429 before anything is sent again (jittered by the budget). */
const RATE_LIMIT_PAUSE_MS = 10_000;
/** The venue's page cap today, reserved for in the budget until a larger page is seen. */
export const DEFAULT_PAGE_CAP = 2_000;

export type InfoRequest = { type: string } & Record<string, unknown>;

export class InfoClient {
  /**
   * The largest number of fills one answer has held. The venue's cap has changed before (500 in
   * 2023, 2,000 today), so it is learned, never assumed: a page shorter than the largest seen is
   * certainly short of the cap and ends a history; one as long may be full, and the next page
   * (which repeats its last millisecond) tells.
   */
  pageCap = 0;

  constructor(
    private readonly baseUrl: string,
    readonly budget: RequestBudget,
    private readonly rateLimitPauseMs = RATE_LIMIT_PAUSE_MS,
  ) {}

  /** Sends one info request; resolves with the parsed JSON answer. */
  async post(body: InfoRequest): Promise<unknown> {
    const reserved =
      baseWeight(body.type) + worstAnswerWeight(body.type, Math.max(this.pageCap, DEFAULT_PAGE_CAP));
    await this.budget.take(reserved);
    const response = await this.send(body);
    if (response.status === 429) {
      // Refused: the venue counts the request, not an answer it did not give.
      this.budget.refund(reserved - baseWeight(body.type));
      this.budget.penalize(this.rateLimitPauseMs);
      throw new RateLimitedError(`the venue answered 429 to ${body.type}`);
    }
    if (!response.ok) {
      this.budget.refund(reserved - baseWeight(body.type));
      const text = (await response.text().catch(() => '')).slice(0, 200);
      throw new VenueAnswerError(`the venue answered ${response.status} to ${body.type}: ${text}`);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      throw new VenueAnswerError(
        `the venue's answer to ${body.type} is not JSON (${(error as Error).message})`,
      );
    }
    const items = Array.isArray(answer) ? answer.length : 0;
    this.budget.refund(reserved - baseWeight(body.type) - answerWeight(body.type, items));
    if (isFillsType(body.type) && items > this.pageCap) this.pageCap = items;
    return answer;
  }

  /**
   * `candleSnapshot`: the coin's candles of `interval` overlapping [startTime, endTime] (ms), at
   * most the venue's 5,000 (weight 20 + 1 per 60 candles, reserved for a full answer).
   */
  candleSnapshot(req: {
    coin: string;
    interval: string;
    startTime: number;
    endTime: number;
  }): Promise<unknown> {
    return this.post({ type: 'candleSnapshot', req });
  }

  /** Whether an answer of `items` fills may have been cut at the venue's cap (the next page tells). */
  mayBeFull(items: number): boolean {
    return items > 0 && items >= this.pageCap;
  }

  private async send(body: InfoRequest): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new VenueUnreachableError(
        `the venue cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      );
    }
  }
}

const isFillsType = (type: string) => type === 'userFills' || type === 'userFillsByTime';
