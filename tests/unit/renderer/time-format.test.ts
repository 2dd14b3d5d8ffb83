import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@renderer/format/locale';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';

// Times are written in the user's locale (locale-format.test.ts covers others); these are en-GB's.
beforeAll(() => {
  setLocale('en-GB');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 11, 15, 12, 0));
});
afterAll(() => {
  vi.useRealTimers();
});

describe('time formats', () => {
  it('writes a dense cell time; one more than 300 days away as its day with the year', () => {
    expect(formatShortTime(new Date(2026, 10, 21, 6, 5, 9).toISOString())).toBe('21 Nov, 06:05');
    expect(formatShortTime(new Date(2026, 11, 3, 18, 40, 2).toISOString(), true)).toBe('3 Dec, 18:40:02');
    // 286 days back: still a day and a time.
    expect(formatShortTime(new Date(2026, 2, 4, 18, 7).toISOString())).toBe('4 Mar, 18:07');
    expect(formatShortTime(new Date(2026, 0, 3, 18, 40, 2).toISOString(), true)).toBe('3 Jan 2026');
    expect(formatShortTime(new Date(2021, 1, 1, 0, 0).toISOString())).toBe('1 Feb 2021');
  });

  it('writes last December’s trades with their time in January', () => {
    vi.setSystemTime(new Date(2027, 0, 2, 9, 0));
    expect(formatShortTime(new Date(2026, 11, 31, 23, 59).toISOString())).toBe('31 Dec, 23:59');
    vi.setSystemTime(new Date(2026, 11, 15, 12, 0));
  });

  it('says — for no time and gives back text it cannot read', () => {
    expect(formatShortTime(null)).toBe('—');
    expect(formatShortTime('soon')).toBe('soon');
    expect(formatTimestamp('soon')).toBe('soon');
  });

  it('writes a full local timestamp', () => {
    expect(formatTimestamp(new Date(2025, 10, 21, 10, 29, 3).toISOString())).toBe('21 Nov 2025, 10:29:03');
  });
});
