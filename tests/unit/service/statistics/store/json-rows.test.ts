import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageJson, pageJsonBuffer } from '../../../../../src/service/statistics/store/json-rows';

describe('pageJsonBuffer', () => {
  it('writes the bytes of pageJson, UTF-8 included', () => {
    const meta = { total: 3, pitId: 'p€', searchAfter: ['é', 2] };
    const rows = ['{"a":1}', '{"pairs":["ÉTH-USDT","😀"]}', '{}'];
    expect(pageJsonBuffer(rows, meta).equals(Buffer.from(pageJson(rows, meta)))).toBe(true);
    expect(pageJsonBuffer([], meta).toString()).toBe(pageJson([], meta));
    const bytes = rows.map((row) => new TextEncoder().encode(row));
    expect(pageJsonBuffer(bytes, meta).equals(Buffer.from(pageJson(rows, meta)))).toBe(true);
  });

  it('matches pageJson for any rows', () => {
    fc.assert(
      fc.property(fc.array(fc.json()), fc.dictionary(fc.string(), fc.string()), (rows, meta) => {
        const page = pageJsonBuffer(rows, meta);
        expect(page.equals(Buffer.from(pageJson(rows, meta)))).toBe(true);
      }),
    );
  });
});
