/** Decimal places of the sandbox's USD amounts (the venue settles in a 6-decimal stablecoin). */
export const USD_DECIMALS = 6;
const SCALE = 10 ** USD_DECIMALS;

/** Rounds a computed USD amount to the venue's precision, so that float noise never reaches the wire. */
export function roundUsd(value: number): number {
  const rounded = Math.round(value * SCALE) / SCALE;
  // -0 would print as 0 anyway; normalising keeps equality checks in tests honest.
  return rounded === 0 ? 0 : rounded;
}

/** Whether `value` has at most USD_DECIMALS decimal places: rounding it there gives the same number. */
export function hasUsdPrecision(value: number): boolean {
  return Number(value.toFixed(USD_DECIMALS)) === value;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch ms → the wire's ISO 8601 UTC with milliseconds. */
export const isoOf = (ms: number): string => new Date(ms).toISOString();
