import { searchPopulations, type IndexPage } from '../../../shared/statistics-index';
import type { ServiceDb } from '../../store/database';
import type { Condition } from '../../store/conditions';
import { indexConditions, indexSort } from '../index/index-conditions';
import { currentPageBuffer, currentRowsJson } from './render-rows';
import { statisticsIndexOf } from '../index/statistics-index';

/** One page of current statistic records, each already rendered as JSON text. */
export interface StatisticPage {
  rows: string[];
  total: number;
}

export interface StatisticQuery {
  protocol: string;
  /** Conditions by the body part they came from, so an error names it (`queries`, `ranges`). */
  conditions: { from: string; list: Condition[] }[];
  sort: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
  withRanking: boolean;
}

/**
 * Filters, sorts and pages the current records of one protocol (the REST statistic filters)
 * through the columnar index (docs/statistics.md, "The columnar index"); the page's rows are
 * then rendered from the store.
 */
export function filterStatistics(db: ServiceDb, query: StatisticQuery): StatisticPage {
  const page = searchStatistics(db, query);
  return { rows: currentRowsJson(db, page.refs, query.withRanking), total: page.total };
}

/**
 * The same page as the route's whole answer, `{"data":[…],"meta":…}`, as the bytes that go to
 * the socket (`pageJson` of filterStatistics's rows, made without decoding the stored JSON).
 */
export function filterStatisticsAnswer(
  db: ServiceDb,
  query: StatisticQuery,
  meta: (total: number) => object,
): Buffer {
  const page = searchStatistics(db, query);
  return currentPageBuffer(db, page.refs, query.withRanking, meta(page.total));
}

/**
 * A number that changes whenever what the index answers from changes: a recompute, a trader's
 * update, percentiles the live market rewrites in place. The answer cache's key (routes/
 * statistics.ts): the stored statistics generation missed the in-place percentile rewrites, so a
 * cached public filter kept a record's old ranking, and reading it was a query a request.
 */
export function statisticsVersion(db: ServiceDb): number {
  const generation = statisticsIndexOf(db).current();
  let serial = serials.get(generation);
  if (serial === undefined) serials.set(generation, (serial = lastSerial += 1));
  return serial;
}
const serials = new WeakMap<object, number>();
let lastSerial = 0;

function searchStatistics(db: ServiceDb, query: StatisticQuery): IndexPage {
  const conditions = query.conditions.flatMap((group) => indexConditions(group.list, group.from));
  const sort = indexSort([query.sort], 'sortBy');
  const prefix = `${query.protocol}|`;
  const populations = statisticsIndexOf(db)
    .current()
    .where((key) => key.startsWith(prefix));
  return searchPopulations(populations, {
    conditions,
    sort,
    offset: query.offset,
    limit: query.limit,
  });
}

/** Every current record of one trader on one protocol, keyed by window, with its ranking, as JSON text. */
export function traderStatisticsJson(db: ServiceDb, protocol: string, account: string): string | null {
  const prefix = `${protocol}|`;
  const populations = statisticsIndexOf(db)
    .current()
    .where((key) => key.startsWith(prefix));
  const { refs } = searchPopulations(populations, {
    conditions: [{ field: 'account', match: account }],
    sort: [{ field: 'type', desc: false }],
    offset: 0,
    limit: populations.length,
  });
  if (refs.length === 0) return null;
  const rows = currentRowsJson(db, refs, true);
  return `{${refs.map((r, i) => `${JSON.stringify(r.population.constant('type'))}:${rows[i]}`).join(',')}}`;
}
