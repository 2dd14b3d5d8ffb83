import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '@renderer/format/locale';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';

// Times are written in the user's locale (locale-format.test.ts covers others); these are en-GB's.
beforeAll(() => {
  setLocale('en-GB');
});

describe('time formats', () => {
  const thisYear = new Date().getFullYear();
  it('writes a dense cell time, with the year only when it is not this one', () => {
    expect(formatShortTime(new Date(thisYear, 10, 21, 6, 5, 9).toISOString())).toBe('21 Nov, 06:05');
    expect(formatShortTime(new Date(thisYear, 0, 3, 18, 40, 2).toISOString(), true)).toBe('3 Jan, 18:40:02');
    expect(formatShortTime(new Date(2021, 1, 1, 0, 0).toISOString())).toBe('1 Feb 2021, 00:00');
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
