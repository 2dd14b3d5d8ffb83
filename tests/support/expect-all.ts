import { expect } from 'vitest';

/**
 * Every item holds `holds`, and there is at least one item: a check over no rows would pass
 * whatever the code did. On failure it names the items that do not hold.
 */
export function expectAll<T>(items: readonly T[], holds: (item: T, index: number) => boolean): void {
  expect(items.length, 'a check over no items proves nothing').toBeGreaterThan(0);
  expect(items.filter((item, i) => !holds(item, i))).toEqual([]);
}
