// The columns a trader's orders are shown in: which field of the Order resource each reads, what
// kind of figure it is and what it is called. The trader page's orders table, the live orders feed
// and their CSV exports (which take a table's labels and values) all read these, so a column is
// named and read one way everywhere.
import type { Order, OrderType } from './positions';

/** What a column holds: decides how it is formatted (and so how it sorts). */
export type OrderColumnKind = 'time' | 'orderType' | 'usd' | 'signedUsd' | 'price' | 'hash';

/** One column of the order table. */
export interface OrderColumn {
  /** The Order field it shows. */
  field: keyof Order;
  kind: OrderColumnKind;
  label: string;
  /** The header's tooltip, where the label needs one. */
  title?: string;
  /** The figure or text of an order; null when the deployment did not send it. */
  value: (order: Order) => string | number | null;
}

/** Every column of the order table, by name. */
export const ORDER_COLUMNS = {
  blockTime: { field: 'blockTime', kind: 'time', label: 'Time', value: (o) => o.blockTime },
  type: { field: 'type', kind: 'orderType', label: 'Type', value: (o) => o.type },
  sizeDelta: {
    field: 'sizeDeltaNumber',
    kind: 'usd',
    label: 'Size Δ',
    title: 'How much the order changed the position size, in USD.',
    value: (o) => o.sizeDeltaNumber ?? null,
  },
  collateralDelta: {
    field: 'collateralDeltaNumber',
    kind: 'usd',
    label: 'Collateral Δ',
    value: (o) => o.collateralDeltaNumber ?? null,
  },
  price: { field: 'priceNumber', kind: 'price', label: 'Price', value: (o) => o.priceNumber ?? null },
  fee: { field: 'feeNumber', kind: 'usd', label: 'Fee', value: (o) => o.feeNumber ?? null },
  // Deployments send the realised PnL under either name.
  realisedPnl: {
    field: 'realisedPnlNumber',
    kind: 'signedUsd',
    label: 'Realised PnL',
    value: (o) => o.realisedPnlNumber ?? o.realisedPnl ?? null,
  },
  txHash: { field: 'txHash', kind: 'hash', label: 'Transaction', value: (o) => o.txHash },
} as const satisfies Record<string, OrderColumn>;
export type OrderColumnName = keyof typeof ORDER_COLUMNS;

/** An order type as a tag shows it: a margin transfer is too long a word for the column. */
export const orderTypeLabel = (type: OrderType): string => (type === 'MARGIN_TRANSFERRED' ? 'MARGIN' : type);
