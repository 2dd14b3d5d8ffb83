import { z } from 'zod';
import {
  GRAPHQL_INDEX_KINDS,
  GRAPHQL_QUERY_INDEX_KIND,
  graphqlSearchBodySchema,
  indexName,
  type GraphqlCondition,
  type GraphqlIndexKind,
  type GraphqlQueryName,
  type GraphqlSearchBody,
} from '../../shared/api/graphql';
import { describeIssues } from '../../shared/validation';
import { ServiceError } from '../http/errors';
import { compileConditions, type Sql } from '../store/conditions';
import type { ServiceDb } from '../store/database';
import { positionFields } from '../store/fields';
import { ordersDataSet, positionsDataSet, statisticsDataSet, type DataSet } from './datasets';
import { GRAPHQL_LIMITS } from './limits';
import { runSearch, type SearchPage, type SearchRequest } from './search';

/** What the resolvers read: the store, the configured namespace and the known protocols. */
export interface GraphqlContext {
  db: ServiceDb;
  namespace: string;
  knownProtocols: ReadonlySet<string>;
}

/** Arguments of the four queries (`protocols` exists on the position queries only). */
export interface SearchArgs {
  index: string;
  protocols?: readonly string[] | null;
  body?: unknown;
}

const DATA_SETS: Readonly<Record<GraphqlIndexKind, DataSet>> = {
  positions: positionsDataSet,
  orders: ordersDataSet,
  position_statistics: statisticsDataSet,
};

/** Resolves one of the four queries: checks its arguments, then searches. */
export function resolveSearch(query: GraphqlQueryName, args: SearchArgs, ctx: GraphqlContext): SearchPage {
  const { set, request } = planSearch(query, args, ctx);
  return runSearch(ctx.db, set, request);
}

/**
 * The data set and search of a query's arguments (index, protocols, body), each checked.
 * `parsedBody`: `args.body` already parsed with the contract's schema (the envelope's check did
 * it, request.ts), so only the service's limits are checked here.
 */
export function planSearch(
  query: GraphqlQueryName,
  args: SearchArgs,
  ctx: Omit<GraphqlContext, 'db'>,
  parsedBody?: GraphqlSearchBody,
): { set: DataSet; request: SearchRequest } {
  const set = DATA_SETS[indexKind(query, args.index, ctx.namespace)];
  const body = parsedBody ? withinLimits(parsedBody) : searchBody(args.body);
  const implied = impliedConditions(query, knownProtocolList(args.protocols, ctx.knownProtocols));
  return { set, request: { body, implied } };
}

/** The kind an index names, or an error naming the index and what is wrong with it. */
function indexKind(query: GraphqlQueryName, index: string, namespace: string): GraphqlIndexKind {
  const wanted = GRAPHQL_QUERY_INDEX_KIND[query];
  // The usual case, decided without building the message (a namespace holds no dot, but then
  // the checks below would read the index otherwise).
  if (index === indexName(namespace, wanted) && !namespace.includes('.')) return wanted;
  const reads = `${query} reads ${show(indexName(namespace, wanted))}`;
  const dot = index.indexOf('.');
  if (dot < 0) throw invalid(`index ${show(index)} is not <namespace>.<kind>; ${reads}`);
  const [space, kind] = [index.slice(0, dot), index.slice(dot + 1)];
  if (space !== namespace)
    throw invalid(`index ${show(index)} names an unknown namespace ${show(space)}; ${reads}`);
  if (!(GRAPHQL_INDEX_KINDS as readonly string[]).includes(kind))
    throw invalid(`index ${show(index)} names an unknown kind ${show(kind)}; ${reads}`);
  if (kind !== wanted) throw invalid(`index ${show(index)} holds ${kind}, not ${wanted}; ${reads}`);
  return wanted;
}

/** `protocols`, each one checked against the catalogue; absent or empty means every protocol. */
function knownProtocolList(protocols: SearchArgs['protocols'], known: ReadonlySet<string>): string[] {
  if (!protocols || protocols.length === 0) return [];
  const list = [...new Set(protocols ?? [])];
  for (const [i, protocol] of (protocols ?? []).entries()) {
    if (!known.has(protocol))
      throw invalid(`protocols[${i}] ${show(protocol)} is not a known protocol (${[...known].join(', ')})`);
  }
  return list;
}

/** The conditions a query adds to the client's: its protocols, and OPEN for the top opening list. */
function impliedConditions(query: GraphqlQueryName, protocols: string[]): Sql[] {
  const implied: Sql[] = [];
  if (protocols.length > 0)
    implied.push(compileConditions(positionFields, [{ field: 'protocol', in: protocols }], 'protocols'));
  if (query === 'searchTopOpeningPosition')
    implied.push(compileConditions(positionFields, [{ field: 'status', match: 'OPEN' }], 'status'));
  return implied;
}

/** `body` checked with the contract's schema, then against the service's size limits. */
function searchBody(value: unknown): GraphqlSearchBody {
  const parsed = graphqlSearchBodySchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ['body', ...issue.path] }));
    throw invalid(describeIssues(new z.ZodError(issues)));
  }
  return withinLimits(parsed.data);
}

/** A parsed body checked against the service's size limits. */
function withinLimits(body: GraphqlSearchBody): GraphqlSearchBody {
  const { maxConditions, maxBoundValues, maxOffset } = GRAPHQL_LIMITS;
  const load = conditionLoad(body.filter.and);
  if (load.conditions > maxConditions)
    throw invalid(`body.filter.and must hold at most ${maxConditions} conditions, "or" members included`);
  if (load.values > maxBoundValues)
    throw invalid(
      `body.filter.and must hold at most ${maxBoundValues} values, "in" and "nin" lists included`,
    );
  if (body.paging.from > maxOffset) throw invalid(`body.paging.from must be at most ${maxOffset}`);
  return body;
}

/** How many conditions and values a filter holds, counted through nested `or`. */
function conditionLoad(conditions: readonly GraphqlCondition[]): { conditions: number; values: number } {
  let total = { conditions: conditions.length, values: 0 };
  for (const condition of conditions) {
    if ('or' in condition) {
      const inner = conditionLoad(condition.or);
      total = { conditions: total.conditions + inner.conditions, values: total.values + inner.values };
    } else {
      const lists =
        ('in' in condition ? condition.in.length : 0) + ('nin' in condition ? condition.nin.length : 0);
      total.values += lists + 1;
    }
  }
  return total;
}

/** A value from the request, quoted and cut short: it is user input going into a message. */
function show(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', message);
