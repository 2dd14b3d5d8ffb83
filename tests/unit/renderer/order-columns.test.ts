import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ORDER_COLUMNS as SHARED, orderTypeLabel } from '@shared/api/order-columns';
import { orderSchema, type Order } from '@shared/api/positions';
import { ORDER_COLUMNS as TRADER_TABLE } from '@renderer/pages/trader/position-columns';
import { orderColumn } from '@renderer/components/table/order-columns';
import { toCsvRows } from '@renderer/components/table/csv-rows';

const html = (node: ReactNode): string => renderToStaticMarkup(node);

const order: Order = orderSchema.parse({
  id: 'o1',
  account: '0x1111111111111111111111111111111111111111',
  key: null,
  protocol: 'GMX',
  txHash: '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789',
  indexToken: '0x2222222222222222222222222222222222222222',
  collateralToken: null,
  pair: 'ETH-USDT',
  sizeDeltaNumber: 12500,
  collateralDeltaNumber: -300,
  priceNumber: 2500.5,
  feeNumber: 7.25,
  realisedPnl: -42.5,
  type: 'MARGIN_TRANSFERRED',
  logId: 1,
  blockNumber: 2,
  blockTime: '2024-03-01T12:34:56.000Z',
  createdAt: '2024-03-01T12:34:57.000Z',
});

describe('the order table, defined once in src/shared', () => {
  it('reads fields the Order resource has', () => {
    for (const column of Object.values(SHARED))
      expect(Object.keys(orderSchema.shape)).toContain(column.field);
  });

  it("is the trader page's orders table, column for column, label for label", () => {
    expect(TRADER_TABLE.map((c) => [c.id, c.label, c.title])).toEqual(
      Object.entries(SHARED).map(([name, c]) => [name, c.label, 'title' in c ? c.title : undefined]),
    );
  });

  it('exports as CSV the shared labels and values (realised PnL under either name)', () => {
    const csv = toCsvRows(TRADER_TABLE, [order]);
    expect(csv.columns).toEqual(Object.values(SHARED).map((c) => c.label));
    expect(csv.rows[0]).toEqual([
      Date.parse(order.blockTime),
      'MARGIN_TRANSFERRED',
      12500,
      -300,
      2500.5,
      7.25,
      -42.5,
      order.txHash,
    ]);
  });

  it('renders each kind: a short type tag, a signed loss, a short hash', () => {
    expect(orderTypeLabel('MARGIN_TRANSFERRED')).toBe('MARGIN');
    expect(orderTypeLabel('OPEN')).toBe('OPEN');
    expect(html(orderColumn('type', { width: 1 }).render?.(order))).toContain('>MARGIN<');
    expect(html(orderColumn('realisedPnl', { width: 1 }).render?.(order))).toContain('>−$42.50<');
    const hash = html(orderColumn('txHash', { width: 1 }).render?.(order));
    expect(hash).toContain('0xabcd');
    expect(hash).not.toContain('>0xabcdef0123456789abcdef');
  });

  it("keeps a table's own column id where its saved layout needs it", () => {
    expect(orderColumn('blockTime', { width: 84, id: 'time' }).id).toBe('time');
  });
});
