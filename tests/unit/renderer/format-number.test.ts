import { describe, expect, it } from 'vitest';
import {
  formatCompact,
  formatDuration,
  formatLeverage,
  formatNumber,
  formatPercent,
  formatPrice,
  formatUsd,
  formatUsdCompact,
  MISSING,
  signClass,
} from '@renderer/format/number';
import { formatAge } from '@renderer/format/age';

describe('trader number formats', () => {
  it('writes USD with a true minus and an optional plus', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(-3)).toBe('−$3.00');
    expect(formatUsd(3, { signed: true })).toBe('+$3.00');
    expect(formatUsd(0, { signed: true })).toBe('$0.00');
  });

  it('compacts large USD figures only', () => {
    expect(formatUsdCompact(9999.5)).toBe('$9,999.50');
    expect(formatUsdCompact(1_234_567)).toBe('$1.23M');
    expect(formatUsdCompact(-25_000, { signed: true })).toBe('−$25K');
  });

  it('writes percent, leverage, compact and durations', () => {
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatPercent(-0.5, { signed: true })).toBe('−0.5%');
    expect(formatLeverage(12.5)).toBe('12.5×');
    expect(formatCompact(1_500_000)).toBe('1.5M');
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 5)).toBe('3d 4h');
    expect(formatDuration(5 * 3600 + 12 * 60)).toBe('5h 12m');
    expect(formatDuration(42 * 60)).toBe('42m');
    expect(formatDuration(18)).toBe('18s');
  });

  it('writes two decimals always when asked, so that a column of figures lines up', () => {
    expect(formatPercent(60, { fixed: true })).toBe('60.00%');
    expect(formatPercent(-0.4, { signed: true, fixed: true })).toBe('−0.40%');
    expect(formatPercent(-0.001, { signed: true, fixed: true })).toBe('0.00%');
    expect(formatNumber(1, { fixed: true })).toBe('1.00');
    expect(formatNumber(58.186, { fixed: true })).toBe('58.19');
    expect(formatLeverage(11, { fixed: true })).toBe('11.00×');
    expect(formatUsdCompact(691_700, { fixed: true })).toBe('$691.70K');
    expect(formatUsdCompact(-25_000, { signed: true, fixed: true })).toBe('−$25.00K');
    expect(formatUsdCompact(9999.5, { fixed: true })).toBe('$9,999.50');
    for (const f of [formatPercent, formatNumber, formatLeverage, formatUsdCompact])
      expect(f(null, { fixed: true })).toBe(MISSING);
  });

  it('writes every negative with a true minus, and no sign on what rounds to zero', () => {
    expect(formatNumber(-1.5)).toBe('−1.5');
    expect(formatCompact(-2_500_000)).toBe('−2.5M');
    expect(formatPrice(-0.5)).toBe('−0.5');
    expect(formatLeverage(-2)).toBe('−2×');
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatUsd(-0.001)).toBe('$0.00');
    expect(formatPercent(-0.001, { signed: true })).toBe('0%');
    expect(formatUsd(0.001, { signed: true })).toBe('$0.00');
  });

  it('shows a dash for missing numbers, never NaN', () => {
    for (const f of [formatUsd, formatPercent, formatLeverage, formatCompact, formatDuration])
      expect([f(null), f(undefined), f(Number.NaN)]).toEqual([MISSING, MISSING, MISSING]);
  });

  it('colours gains, losses and zero', () => {
    expect([signClass(2), signClass(-1), signClass(0), signClass(null)]).toEqual([
      'num-up',
      'num-down',
      'num-flat',
      'num-flat',
    ]);
  });

  it('says how old a timestamp is', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    expect(formatAge('2026-01-01T11:59:48.000Z', now)).toBe('12 s');
    expect(formatAge('2026-01-01T11:57:00.000Z', now)).toBe('3 min');
    expect(formatAge('2026-01-01T10:00:00.000Z', now)).toBe('2 h');
    expect(formatAge('2025-12-28T12:00:00.000Z', now)).toBe('4 d');
  });
});
