import type { Position } from '../../shared/api/positions';
import type { ServiceDb } from './database';
import { prepareCached } from '../../node/sqlite';
import { compileConditions, compileSort, type Condition } from './conditions';
import { positionFields } from './fields';
import { positionToWire, type PositionRow } from './positions';

export interface PositionQuery {
  protocol: string;
  conditions: Condition[];
  sort: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
}

/** Filters, sorts and pages one protocol's positions (the REST position filter). */
export function filterPositions(db: ServiceDb, query: PositionQuery): { rows: Position[]; total: number } {
  const where = compileConditions(positionFields, query.conditions, 'queries');
  const base = `FROM positions WHERE protocol = ? AND ${where.sql}`;
  const params = [query.protocol, ...where.params];
  const total = (prepareCached(db, `SELECT COUNT(*) AS n ${base}`).get(...params) as { n: number }).n;
  const order = compileSort(positionFields, [query.sort], 'sortBy');
  const rows = prepareCached(db, `SELECT * ${base} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
    ...params,
    query.limit,
    query.offset,
  ) as PositionRow[];
  return { rows: rows.map(positionToWire), total };
}
