import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import * as kinds from '@renderer/components/table/column-kinds';

interface Row {
  v: number | null | undefined;
  isLong?: boolean | null;
  pair?: string;
}

const html = (node: ReactNode): string => renderToStaticMarkup(node);

describe('column kinds', () => {
  it('keeps only the keys given, right-aligned, with missing figures as null', () => {
    const column = kinds.usdColumn<Row>({ id: 'fee', label: 'Fee', width: 76, get: (r) => r.v });
    expect(Object.keys(column).sort()).toEqual(['align', 'id', 'label', 'render', 'value', 'width']);
    expect(column.align).toBe('right');
    expect(column.value({ v: undefined })).toBeNull();
    expect(column.value({ v: 3 })).toBe(3);
  });

  it('renders USD plain, compact and signed with the sign colour', () => {
    const plain = kinds.usdColumn<Row>({ id: 'a', label: 'A', width: 1, get: (r) => r.v });
    const signed = kinds.usdColumn<Row>({
      id: 'b',
      label: 'B',
      title: 't',
      width: 1,
      sortable: true,
      signed: true,
      compact: true,
      testId: 'x',
      get: (r) => r.v,
    });
    expect(html(plain.render?.({ v: 1234.5 }))).toBe('<span class="num">$1,234.50</span>');
    expect(html(signed.render?.({ v: 1_234_567 }))).toBe(
      '<span class="num num-up" data-testid="x">+$1.23M</span>',
    );
    // Two decimals always in a column, compact or not: `$1.20M` stands over `$1.23M`.
    expect(html(signed.render?.({ v: 1_200_000 }))).toBe(
      '<span class="num num-up" data-testid="x">+$1.20M</span>',
    );
    expect(html(signed.render?.({ v: null }))).toBe('<span class="num num-flat" data-testid="x">—</span>');
    expect(signed.title).toBe('t');
    expect(signed.sortable).toBe(true);
  });

  it('renders price, and leverage and signed percent with two decimals always', () => {
    const get = (r: Row): number | null | undefined => r.v;
    expect(
      html(kinds.priceColumn<Row>({ id: 'p', label: 'P', width: 1, get }).render?.({ v: 64231.55 })),
    ).toBe('<span class="num">64,231.6</span>');
    expect(
      html(kinds.leverageColumn<Row>({ id: 'l', label: 'L', width: 1, get }).render?.({ v: 12.5 })),
    ).toBe('<span class="num">12.50×</span>');
    expect(
      html(kinds.signedPercentColumn<Row>({ id: 'r', label: 'R', width: 1, get }).render?.({ v: -3 })),
    ).toBe('<span class="num num-down">−3.00%</span>');
  });

  it('gives the side as LONG, SHORT or null, and the pair as a sortable symbol', () => {
    const side = kinds.sideColumn<Row>({ width: 70, isLong: (r) => r.isLong });
    expect([true, false, null].map((isLong) => side.value({ v: 0, isLong }))).toEqual([
      'LONG',
      'SHORT',
      null,
    ]);
    const pair = kinds.symbolColumn<Row>({ width: 96, get: (r) => r.pair ?? '' });
    expect(pair.sortable).toBe(true);
    expect(html(pair.render?.({ v: 0, pair: 'BTC' }))).toBe('<span class="symbol">BTC</span>');
  });
});
