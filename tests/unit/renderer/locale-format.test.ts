import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatBytes } from '@renderer/format/bytes';
import {
  canonicalLocale,
  currentLocale,
  localeOverride,
  setLocale,
  systemLocale,
} from '@renderer/format/locale';
import { formatInteger, formatPrice, formatUsd, formatUsdCompact } from '@renderer/format/number';
import { formatDay, formatShortTime, formatTimestamp, formatUtcDay } from '@renderer/format/time';

afterEach(() => {
  setLocale(null);
});

// Dates are written relative to now (formatShortTime): now is fixed.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 11, 15, 12, 0));
});
afterAll(() => {
  vi.useRealTimers();
});
const thisYear = 2026;
const at = (month: number, day: number, h: number, m: number, s = 0, year = thisYear): string =>
  new Date(year, month, day, h, m, s).toISOString();

describe('the locale', () => {
  it('follows the OS unless overridden, and refuses tags Intl cannot use', () => {
    expect(setLocale(null)).toBe(systemLocale());
    expect(localeOverride()).toBeNull();
    expect(setLocale('de-de')).toBe('de-DE');
    expect(localeOverride()).toBe('de-DE');
    expect(currentLocale()).toBe('de-DE');
    expect(canonicalLocale('not a locale!')).toBeNull();
    expect(canonicalLocale('')).toBeNull();
    // An unusable override is no override: the OS's locale applies.
    expect(setLocale('%%')).toBe(systemLocale());
    expect(localeOverride()).toBeNull();
  });

  it('writes numbers with the locale’s separators, keeping the true minus and the $ sign', () => {
    setLocale('en-US');
    expect(formatUsd(-1234.5)).toBe('−$1,234.50');
    expect(formatInteger(12500)).toBe('12,500');
    setLocale('de-DE');
    expect(formatUsd(-1234.5)).toBe('−$1.234,50');
    expect(formatInteger(12500)).toBe('12.500');
    expect(formatPrice(64231.55)).toBe('64.231,6');
    expect(formatBytes(1536)).toBe('1,5 KB');
    setLocale('fr-FR');
    // French groups with a narrow no-break space and writes decimals with a comma.
    expect(formatUsd(1234.5)).toBe('$1\u202f234,50');
  });

  it('compacts in the locale’s words', () => {
    setLocale('en-US');
    expect(formatUsdCompact(1_234_567)).toBe('$1.23M');
    setLocale('de-DE');
    expect(formatUsdCompact(1_234_567)).toBe('$1,23\u00a0Mio.');
  });

  it('writes dates with Intl’s month names and order, an old one as its day with the year', () => {
    setLocale('en-GB');
    expect(formatShortTime(at(10, 21, 6, 5))).toBe('21 Nov, 06:05');
    expect(formatShortTime(at(11, 3, 18, 40, 2), true)).toBe('3 Dec, 18:40:02');
    expect(formatShortTime(at(1, 1, 0, 0, 0, 2021))).toBe('1 Feb 2021');
    expect(formatTimestamp(at(10, 21, 10, 29, 3, 2025))).toBe('21 Nov 2025, 10:29:03');
    setLocale('en-US');
    expect(formatShortTime(at(10, 21, 6, 5))).toBe('Nov 21, 06:05 AM');
    setLocale('de-DE');
    expect(formatShortTime(at(2, 4, 18, 7))).toBe('4. März, 18:07');
    expect(formatDay(new Date(2025, 11, 24))).toBe('24. Dez. 2025');
    setLocale('fr-FR');
    expect(formatDay(new Date(2025, 6, 14))).toBe('14 juil. 2025');
    // A UTC day stays that day whatever the time zone of the machine.
    setLocale('en-GB');
    expect(formatUtcDay(new Date(Date.UTC(2026, 10, 21)))).toBe('21 Nov 2026');
    expect(formatUtcDay(new Date(Date.UTC(2026, 10, 21, 23, 59)))).toBe('21 Nov 2026');
  });
});
