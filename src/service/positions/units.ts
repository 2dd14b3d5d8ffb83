// Token amounts as exact integers of 10^-18 token: the position engine's sizes (docs/semantics.md,
// Positions rebuilt from fills). Pure.

// ---------------------------------------------------------------------------------------------
// Token amounts
//
// Net sizes are integers of 10^-18 token ("units"), never floats. Why: a position must close exactly
// when its net size returns to zero, and 0.1 + 0.2 − 0.3 is 5.6e-17 in binary floating point. Venue
// sizes are decimal text with few decimals, and on-chain token amounts have at most 18, so scaling
// them to 18 decimals is exact and integer sums are exact: the net is zero if and only if the
// decimal sum is zero. The alternative, a tolerance relative to the position, needs a threshold
// that suits both 1e-5 BTC lots and 1e9 PEPE lots, and would close positions genuinely left with
// dust. Money (prices, PnL, fees) stays floating point: it is stored as REAL and never decides state.
// ---------------------------------------------------------------------------------------------

/** Decimals of a token unit: amounts are exact multiples of 10^-18 token. */
export const TOKEN_DECIMALS = 18;
const ONE_TOKEN = 10n ** BigInt(TOKEN_DECIMALS);

/** A malformed, non-finite or too precise decimal amount. */
export class DecimalError extends Error {
  override name = 'DecimalError';
}

/** value = digits × 10^-scale, exactly; scale ≥ 0. */
interface ExactDecimal {
  digits: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

function exactDecimal(value: string | number): ExactDecimal {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new DecimalError(`${value} is not a finite number`);
  if (typeof value === 'number') {
    // Most numbers print as plain digits ("2000.5"): read them without the pattern (once per fill).
    const text = String(value);
    if (!text.includes('e')) {
      const dot = text.indexOf('.');
      if (dot < 0) return { digits: BigInt(text), scale: 0 };
      return { digits: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
    }
  }
  // String(number) is the shortest text that reads back as the same number, e.g. "0.3", "1e-7".
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL_TEXT.exec(text);
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (!match || whole + fraction === '') throw new DecimalError(`'${text}' is not a decimal number`);
  const digits = BigInt(whole + fraction) * (match[1] === '-' ? -1n : 1n);
  const scale = fraction.length - Number(match[4] ?? '0');
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** Decimal text (or a number) as an exact count of units; throws DecimalError past 18 decimals. */
export function toUnits(value: string | number): bigint {
  const { digits, scale } = exactDecimal(value);
  if (scale <= TOKEN_DECIMALS) return digits * 10n ** BigInt(TOKEN_DECIMALS - scale);
  const divisor = 10n ** BigInt(scale - TOKEN_DECIMALS);
  if (digits % divisor !== 0n)
    throw new DecimalError(`'${String(value)}' has more than ${TOKEN_DECIMALS} decimals`);
  return digits / divisor;
}

/**
 * A stored number of tokens (a REAL column) as the nearest count of units, rounded half away from
 * zero: for resuming a position from its row, where the float is all there is.
 */
export function numberToUnits(value: number): bigint {
  const { digits, scale } = exactDecimal(value);
  if (scale <= TOKEN_DECIMALS) return digits * 10n ** BigInt(TOKEN_DECIMALS - scale);
  return divideRounded(digits, 10n ** BigInt(scale - TOKEN_DECIMALS));
}

/** Units as canonical decimal text: no exponent, no trailing zeros ("0.3", "-2", "0"). */
export function unitsToText(units: bigint): string {
  const abs = units < 0n ? -units : units;
  const fraction = (abs % ONE_TOKEN).toString().padStart(TOKEN_DECIMALS, '0').replace(/0+$/, '');
  return `${units < 0n ? '-' : ''}${abs / ONE_TOKEN}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Units as the nearest number, for money arithmetic and REAL columns. Parsing "<units>e-18" is
 * correctly rounded like parsing the decimal text, and cheaper to build (it runs on every fill).
 */
export const unitsToNumber = (units: bigint): number => Number(`${units}e-${TOKEN_DECIMALS}`);

/**
 * The tokens `usd` of notional buys at `price`, rounded half away from zero to 18 decimals. The
 * division is done on the exact decimals, not on floats, so equal USD amounts at equal prices always
 * give equal units (a USD-sized close then matches a USD-sized open exactly).
 */
export function usdToUnits(usd: string | number, price: string | number): bigint {
  const u = exactDecimal(usd);
  const p = exactDecimal(price);
  if (p.digits <= 0n) throw new DecimalError(`price ${String(price)} must be greater than 0`);
  const numerator = u.digits * 10n ** BigInt(p.scale + TOKEN_DECIMALS);
  return divideRounded(numerator, p.digits * 10n ** BigInt(u.scale));
}

/**
 * `units` × `factor` (a finite number ≥ 0, read as its shortest decimal text), rounded half away
 * from zero: a share of a holding, exact to the unit however large the holding.
 */
export function scaleUnits(units: bigint, factor: number): bigint {
  const { digits, scale } = exactDecimal(factor);
  if (digits < 0n) throw new DecimalError(`factor ${factor} must not be negative`);
  return divideRounded(units * digits, 10n ** BigInt(scale));
}

/** n / d rounded half away from zero; d > 0. */
function divideRounded(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) < d) return q;
  return n < 0n ? q - 1n : q + 1n;
}
