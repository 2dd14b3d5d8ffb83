// The venue's documented weight of each info request (docs/venue-feed.md, Budget): what a request
// costs before it leaves, and what its answer adds.

/** Info request types that weigh 2; every other type weighs 20, `userRole` 60. */
const LIGHT_TYPES = new Set(['allMids', 'clearinghouseState', 'l2Book', 'orderStatus', 'exchangeStatus']);
/** Types whose answer adds 1 per 20 fills returned. */
const FILL_TYPES = new Set(['userFills', 'userFillsByTime', 'userTwapSliceFills']);

/** The weight charged for sending an info request of `type`, before its answer. */
export function baseWeight(type: string): number {
  if (LIGHT_TYPES.has(type)) return 2;
  if (type === 'userRole') return 60;
  return 20;
}

/** The weight an answer of `items` entries adds (fills: 1 per 20; candles: 1 per 60). */
export function answerWeight(type: string, items: number): number {
  if (FILL_TYPES.has(type)) return Math.floor(items / 20);
  if (type === 'candleSnapshot') return Math.floor(items / 60);
  return 0;
}

/**
 * The most an answer of `type` can add, reserved before the request leaves so that the budget is
 * never exceeded, whatever comes back: a page of at most `pageCap` fills or 5,000 candles.
 */
export function worstAnswerWeight(type: string, pageCap: number): number {
  if (FILL_TYPES.has(type)) return answerWeight(type, pageCap);
  if (type === 'candleSnapshot') return answerWeight(type, 5_000);
  return 0;
}
