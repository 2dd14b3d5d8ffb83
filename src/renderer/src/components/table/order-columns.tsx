import type { Order } from '@shared/api/positions';
import {
  ORDER_COLUMNS,
  orderTypeLabel,
  type OrderColumn,
  type OrderColumnName,
} from '@shared/api/order-columns';
import { shortAddress } from '@renderer/format/address';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';
import type { Column } from './DataTable';
import { priceColumn, usdColumn } from './column-kinds';

/** How one table shows a column of the order table: its place, not what it means. */
export interface OrderColumnView {
  width: number;
  sortable?: boolean;
  /** Abbreviate USD figures (1.2M). */
  compact?: boolean;
  /** The table's own column id, where it differs from the column's name (saved layouts use it). */
  id?: string;
}

const ORDER_TYPE_CLASS: Record<Order['type'], string> = {
  OPEN: 'tag-accent',
  INCREASE: 'tag-accent',
  DECREASE: 'tag-warn',
  CLOSE: '',
  MARGIN_TRANSFERRED: '',
};

/**
 * A column of the order table (src/shared/api/order-columns.ts) as a table column: the label,
 * tooltip and value are the shared ones, the rendering follows the column's kind.
 */
export function orderColumn(name: OrderColumnName, view: OrderColumnView): Column<Order> {
  const column: OrderColumn = ORDER_COLUMNS[name];
  const spec = {
    id: view.id ?? name,
    label: column.label,
    ...(column.title !== undefined && { title: column.title }),
    width: view.width,
    ...(view.sortable !== undefined && { sortable: view.sortable }),
  };
  // The numeric kinds read numbers (the Order schema's figures); the others read text.
  const figure = (o: Order) => column.value(o) as number | null;
  const text = (o: Order) => column.value(o) as string;
  switch (column.kind) {
    case 'usd':
      return usdColumn({
        ...spec,
        ...(view.compact !== undefined && { compact: view.compact }),
        get: figure,
      });
    case 'signedUsd':
      return usdColumn({ ...spec, signed: true, get: figure });
    case 'price':
      return priceColumn({ ...spec, get: figure });
    case 'time':
      return {
        ...spec,
        value: (o) => Date.parse(text(o)),
        render: (o) => (
          <span className="num muted" title={formatTimestamp(text(o))}>
            {formatShortTime(text(o), true)}
          </span>
        ),
      };
    case 'orderType':
      return {
        ...spec,
        value: text,
        render: (o) => <span className={`tag ${ORDER_TYPE_CLASS[o.type]}`}>{orderTypeLabel(o.type)}</span>,
      };
    case 'hash':
      return {
        ...spec,
        value: text,
        render: (o) => (
          <span className="mono muted" title={text(o)}>
            {shortAddress(text(o), 6, 4)}
          </span>
        ),
      };
  }
}
