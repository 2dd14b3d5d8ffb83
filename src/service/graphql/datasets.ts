import type { GraphqlIndexKind, GraphqlSort } from '../../shared/api/graphql';
import type { FieldMap } from '../store/fields';
import { orderFields, positionFields, statisticFields } from '../store/fields';
import { orderToWire, positionToGraphql, type OrderRow, type PositionRow } from '../store/positions';
import { CURRENT_ROWS, statisticToWire, type StatisticRow } from '../statistics/store/statistic-rows';

/** What an index name picks: a table, the fields a body may name, and how a row goes on the wire. */
export interface DataSet {
  kind: GraphqlIndexKind;
  table: string;
  fields: FieldMap;
  /** A fixed condition every search of the set has (no parameters). */
  always: string;
  /** The order when the body gives no `sorts`. */
  defaultSort: GraphqlSort;
  /** Appended after the sorts (and `id`) so that equal sort keys still page in a stable order. */
  tieBreak: string | null;
  /** Columns that identify a row (with `always`), used to fetch a page's rows after ordering keys. */
  key: readonly string[];
  toItem(row: Record<string, unknown>): Record<string, unknown>;
}

/** Positions: the REST resource plus the GraphQL extras. */
export const positionsDataSet: DataSet = {
  kind: 'positions',
  table: 'positions',
  fields: positionFields,
  always: '1',
  defaultSort: { field: 'openBlockTime', direction: 'desc' },
  tieBreak: null,
  key: ['id'],
  toItem: (row) => positionToGraphql(row as unknown as PositionRow),
};

/** Orders. */
export const ordersDataSet: DataSet = {
  kind: 'orders',
  table: 'orders',
  fields: orderFields,
  always: '1',
  defaultSort: { field: 'blockTime', direction: 'desc' },
  tieBreak: null,
  key: ['id'],
  toItem: (row) => orderToWire(row as unknown as OrderRow),
};

/**
 * Current statistic records only: older generations exist for search-after's points in time.
 * A record's `id` is unique per protocol and window only, so those two break the remaining ties.
 */
export const statisticsDataSet: DataSet = {
  kind: 'position_statistics',
  table: 'statistics',
  fields: statisticFields,
  always: CURRENT_ROWS,
  defaultSort: { field: 'pnl', direction: 'desc' },
  tieBreak: 'protocol ASC, type ASC',
  key: ['protocol', 'type', 'id'],
  toItem: (row) => statisticToWire(row as StatisticRow),
};
