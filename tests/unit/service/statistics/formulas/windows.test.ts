// Window bounds (docs/semantics.md, Windows): [T0 − n days, T0) with T0 = 00:00 UTC today; FULL is all.
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  WINDOWS,
  dayStartMs,
  inWindow,
  windowBounds,
} from '../../../../../src/service/statistics/formulas/windows';
import { NOW, T0 } from './fixtures';

describe('dayStartMs', () => {
  it('floors to 00:00 UTC', () => {
    expect(dayStartMs(NOW)).toBe(T0);
    expect(dayStartMs(T0)).toBe(T0);
    expect(dayStartMs(T0 - 1)).toBe(T0 - DAY_MS);
    expect(new Date(dayStartMs(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toISOString()).toBe(
      '2024-02-29T00:00:00.000Z',
    );
  });

  it('floors times before 1970 down, not towards 0', () => {
    expect(dayStartMs(-1)).toBe(-DAY_MS);
  });
});

describe('windowBounds and inWindow', () => {
  it('bounds each D-window to [T0 − n days, T0)', () => {
    expect(windowBounds('D7', NOW)).toEqual({ fromMs: T0 - 7 * DAY_MS, toMs: T0 });
    expect(windowBounds('D15', NOW)).toEqual({ fromMs: T0 - 15 * DAY_MS, toMs: T0 });
    expect(windowBounds('D30', NOW)).toEqual({ fromMs: T0 - 30 * DAY_MS, toMs: T0 });
    expect(windowBounds('D60', NOW)).toEqual({ fromMs: T0 - 60 * DAY_MS, toMs: T0 });
  });

  it('includes the first instant and excludes T0', () => {
    const d7 = windowBounds('D7', NOW);
    expect(inWindow(T0 - 1, d7)).toBe(true);
    expect(inWindow(T0, d7)).toBe(false);
    expect(inWindow(T0 - 7 * DAY_MS, d7)).toBe(true);
    expect(inWindow(T0 - 7 * DAY_MS - 1, d7)).toBe(false);
  });

  it('FULL holds every closed position, including today and later', () => {
    const full = windowBounds('FULL', NOW);
    expect(inWindow(NOW, full)).toBe(true);
    expect(inWindow(NOW + DAY_MS, full)).toBe(true);
    expect(inWindow(0, full)).toBe(true);
  });

  it('never holds an open position', () => {
    for (const w of WINDOWS) expect(inWindow(null, windowBounds(w, NOW))).toBe(false);
  });

  it('is the same all day long', () => {
    expect(windowBounds('D30', T0)).toEqual(windowBounds('D30', T0 + DAY_MS - 1));
  });
});
