import { numberFormat } from './locale';

// Each in the current locale (format/locale.ts): separators and compact suffixes follow it.
const integer = (): Intl.NumberFormat =>
  numberFormat({ maximumFractionDigits: 0, signDisplay: 'exceptZero' });
/** Exactly two decimals: dollars everywhere, and the other figures of a table (`Decimals`). */
const twoDecimals = (): Intl.NumberFormat =>
  numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
/** `1.23M`; `fixed`: two decimals even when they are zeros (`1.20M`). */
const compact = ({ fixed }: Decimals = {}): Intl.NumberFormat =>
  numberFormat({
    notation: 'compact',
    ...(fixed && { minimumFractionDigits: 2 }),
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  });
const plain = (): Intl.NumberFormat => numberFormat({ maximumFractionDigits: 2, signDisplay: 'exceptZero' });

/**
 * How a figure's decimals are written. `fixed`: always two, as a table column shows them, so that
 * `60.00%` stands over `58.33%` and `−0.40%` (a column of `60%`, `58.33%` and `−0.4%` has to be
 * read figure by figure); else up to two, trailing zeros dropped, as a sentence or a card reads.
 */
export interface Decimals {
  fixed?: boolean;
}
const upToTwo = ({ fixed }: Decimals): Intl.NumberFormat => (fixed ? twoDecimals() : plain());
const price = (): Intl.NumberFormat =>
  numberFormat({ maximumSignificantDigits: 6, signDisplay: 'exceptZero' });

/** What a trader's eye reads as missing: an em dash, never `NaN` or `undefined`. */
export const MISSING = '—';
const isNumber = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * One sign rule for every figure: a true minus (U+2212, not a hyphen) on losses, `+` on gains when
 * asked, and no sign at all on what rounds to zero (no "−$0.00" for a loss of a tenth of a cent).
 * Intl decides what rounds to zero (`signDisplay: 'exceptZero'`), in the locale's own digits; the
 * sign is then placed before the currency symbol, as traders read it.
 */
function signed(format: Intl.NumberFormat, value: number): { sign: string; digits: string } {
  let sign = '';
  let digits = '';
  for (const part of format.formatToParts(value)) {
    if (part.type === 'minusSign') sign = '−';
    else if (part.type === 'plusSign') sign = '+';
    else digits += part.value;
  }
  return { sign, digits };
}

function withSign(
  format: Intl.NumberFormat,
  value: number,
  around: (digits: string) => string,
  plus = false,
): string {
  const { sign, digits } = signed(format, value);
  return `${sign === '+' && !plus ? '' : sign}${around(digits)}`;
}

const bare = (digits: string): string => digits;

/** `12500` → `12,500`. */
export const formatInteger = (value: number): string => withSign(integer(), value, bare);

/** `1234.5` → `$1,234.50`; `-3` → `−$3.00`; `signed` adds `+` to gains. */
export function formatUsd(value: number | null | undefined, options: { signed?: boolean } = {}): string {
  if (!isNumber(value)) return MISSING;
  return withSign(twoDecimals(), value, (d) => `$${d}`, options.signed);
}

/** `1234567` → `$1.23M` (compact, for dense columns); signed like formatUsd; `fixed`: `$691.70K`. */
export function formatUsdCompact(
  value: number | null | undefined,
  options: { signed?: boolean } & Decimals = {},
): string {
  if (!isNumber(value)) return MISSING;
  const format = Math.abs(value) < 10_000 ? twoDecimals() : compact(options);
  return withSign(format, value, (d) => `$${d}`, options.signed);
}

/** A value already in percent: `12.345` → `12.35%`; `signed` adds `+` to gains; `fixed`: `60.00%`. */
export function formatPercent(
  value: number | null | undefined,
  options: { signed?: boolean } & Decimals = {},
): string {
  if (!isNumber(value)) return MISSING;
  return withSign(upToTwo(options), value, (d) => `${d}%`, options.signed);
}

/** `1234567` → `1.23M`. */
export const formatCompact = (value: number | null | undefined): string =>
  isNumber(value) ? withSign(compact(), value, bare) : MISSING;

/** A plain number with up to 2 decimals: `3.14159` → `3.14`; `fixed`: `1` → `1.00`. */
export const formatNumber = (value: number | null | undefined, options: Decimals = {}): string =>
  isNumber(value) ? withSign(upToTwo(options), value, bare) : MISSING;

/** A price with 6 significant digits: `0.000123456` → `0.000123456`, `64231.55` → `64,231.6`. */
export const formatPrice = (value: number | null | undefined): string =>
  isNumber(value) ? withSign(price(), value, bare) : MISSING;

/** `3 × leverage`: `12.5` → `12.5×`; `fixed`: `12.50×`. */
export const formatLeverage = (value: number | null | undefined, options: Decimals = {}): string =>
  isNumber(value) ? withSign(upToTwo(options), value, (d) => `${d}×`) : MISSING;

/** Seconds → `3d 4h`, `5h 12m`, `42m`, `18s`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (!isNumber(seconds)) return MISSING;
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}

/** The colour class of a signed figure: gains green, losses red, zero and missing neutral. */
export function signClass(value: number | null | undefined): 'num-up' | 'num-down' | 'num-flat' {
  if (!isNumber(value) || value === 0) return 'num-flat';
  return value > 0 ? 'num-up' : 'num-down';
}
