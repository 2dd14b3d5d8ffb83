// GraphQL search (docs/api.md, GraphQL, Response wrapping).
import { z } from 'zod';
import {
  expected,
  paged,
  pageMetaSchema,
  protocolIdSchema,
  scalarSchema,
  sortTypeSchema,
  zBool,
  zInt,
  zList,
  zCappedList,
  SORT_KEYS_MAX,
  zNonEmpty,
  zNumber,
  zStrict,
  zText,
} from './common';
import type { PageMeta, Scalar, SortType } from './common';

/** Data sets an index name can pick: the part after the dot. */
export const GRAPHQL_INDEX_KINDS = ['positions', 'orders', 'position_statistics'] as const;
export type GraphqlIndexKind = (typeof GRAPHQL_INDEX_KINDS)[number];

/** `<namespace>.<kind>`, e.g. `local.positions`. */
export const indexName = (namespace: string, kind: GraphqlIndexKind): string => `${namespace}.${kind}`;

const INDEX_PATTERN = /^([a-z][a-z0-9_]*)\.(positions|orders|position_statistics)$/;

/** Splits an index name; null when it is not `<namespace>.<kind>`. */
export function parseIndexName(name: string): { namespace: string; kind: GraphqlIndexKind } | null {
  const match = INDEX_PATTERN.exec(name);
  return match ? { namespace: match[1] as string, kind: match[2] as GraphqlIndexKind } : null;
}

/** An index name; which namespaces exist is the service's business. */
export const graphqlIndexSchema = zText().regex(INDEX_PATTERN, {
  error: `must be <namespace>.<kind> with kind one of ${GRAPHQL_INDEX_KINDS.join(', ')}`,
});

/** The four queries and the data set each reads. */
export const GRAPHQL_QUERY_NAMES = [
  'searchTopOpeningPosition',
  'livePosition',
  'searchOrders',
  'searchPositionStatistic',
] as const;
export type GraphqlQueryName = (typeof GRAPHQL_QUERY_NAMES)[number];
export const GRAPHQL_QUERY_INDEX_KIND: Readonly<Record<GraphqlQueryName, GraphqlIndexKind>> = {
  searchTopOpeningPosition: 'positions',
  livePosition: 'positions',
  searchOrders: 'orders',
  searchPositionStatistic: 'position_statistics',
};

/**
 * Statistic label lists a real client selects (not computed, docs/graphql.md): the GraphQL type has
 * them so that its queries validate, and they are always null.
 */
export const UNCOMPUTED_STATISTIC_LABELS = [
  'statisticLabels',
  'aggregatedLabels',
  'realisedStatisticLabels',
  'realisedAggregatedLabels',
  'ifLabels',
  'ifGoodMarkets',
  'ifBadMarkets',
] as const;

/** A filter condition; values arrive as strings too and are coerced by the field's type. */
export type GraphqlCondition =
  | { field: string; match: Scalar }
  | { field: string; in: Scalar[] }
  | { field: string; nin: Scalar[] }
  | { field: string; gte?: Scalar; lte?: Scalar; gt?: Scalar; lt?: Scalar }
  | { field: string; exists: boolean }
  | { or: GraphqlCondition[] };

/** `or` may nest at most this deep; deeper bodies would only exhaust the stack. */
export const GRAPHQL_OR_DEPTH_MAX = 8;

const field = zNonEmpty();
const BOUNDS = ['gte', 'lte', 'gt', 'lt'] as const;
const matchCondition = zStrict({ field, match: scalarSchema });
const inCondition = zStrict({ field, in: zList(scalarSchema) });
const ninCondition = zStrict({ field, nin: zList(scalarSchema) });
const existsCondition = zStrict({ field, exists: zBool() });
const rangeCondition = zStrict({
  field,
  gte: scalarSchema.optional(),
  lte: scalarSchema.optional(),
  gt: scalarSchema.optional(),
  lt: scalarSchema.optional(),
}).superRefine((range, ctx) => {
  if (BOUNDS.every((b) => range[b] === undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must have one of match, in, nin, exists, or, or a bound (gte, lte, gt, lt)',
    });
  }
});

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `or` nests deeper than `limit` below `value` (stops looking at the limit). */
function orTooDeep(value: unknown, limit: number): boolean {
  if (!isRecord(value) || !Array.isArray(value.or)) return false;
  return limit <= 0 || value.or.some((inner) => orTooDeep(inner, limit - 1));
}

/** The shape a condition claims by its operator key; bounds-only objects are ranges. */
function conditionShapeOf(value: Record<string, unknown>): z.ZodType {
  if ('or' in value) return orCondition;
  if ('match' in value) return matchCondition;
  if ('in' in value) return inCondition;
  if ('nin' in value) return ninCondition;
  if ('exists' in value) return existsCondition;
  return rangeCondition;
}

/**
 * One condition. Routed by its operator key rather than a plain union, so an error points at
 * the field that is wrong (`filter.and[0].or[1].in`) instead of a generic "no shape matched".
 */
export const graphqlConditionSchema = z.unknown().transform((value, ctx): GraphqlCondition => {
  if (!isRecord(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be a condition object' });
    return z.NEVER;
  }
  if (orTooDeep(value, GRAPHQL_OR_DEPTH_MAX)) {
    ctx.addIssue({ code: 'custom', message: `must not nest "or" more than ${GRAPHQL_OR_DEPTH_MAX} deep` });
    return z.NEVER;
  }
  const schema = conditionShapeOf(value);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as GraphqlCondition;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
  return z.NEVER;
}) as unknown as z.ZodType<GraphqlCondition, GraphqlCondition>;

const orCondition: z.ZodType<{ or: GraphqlCondition[] }> = zStrict({
  or: zList(graphqlConditionSchema).min(1, { error: 'must not be empty' }),
});

/** Sort entry `{field, direction}`. */
export const graphqlSortSchema = zStrict({ field, direction: sortTypeSchema });
export interface GraphqlSort {
  field: string;
  direction: SortType;
}

/**
 * `sorts` as an array or a single object (docs/api.md), always an array after parsing.
 * A preprocess (not a union) keeps errors pointing at the wrong field; the cast restores the
 * input type the preprocess erases.
 */
const graphqlSortsSchema = z.preprocess(
  (v) => (isRecord(v) ? [v] : v),
  zCappedList(graphqlSortSchema, SORT_KEYS_MAX),
) as unknown as z.ZodType<GraphqlSort[], GraphqlSort | GraphqlSort[]>;

/** `paging.size` bounds (docs/api.md: 1..1000; default like every page, 20). */
export const GRAPHQL_PAGE_SIZE_MAX = 1000;

/** `variables.body`: filter, sorts, paging; each may be omitted. */
export const graphqlSearchBodySchema = zStrict({
  filter: zStrict({ and: zList(graphqlConditionSchema).default([]) }).prefault({}),
  sorts: graphqlSortsSchema.default([]),
  paging: zStrict({
    size: zInt()
      .min(1, { error: 'must be at least 1' })
      .max(GRAPHQL_PAGE_SIZE_MAX, { error: `must be at most ${GRAPHQL_PAGE_SIZE_MAX}` })
      .default(20),
    from: zInt().min(0, { error: 'must be at least 0' }).default(0),
  }).prefault({}),
});
export type GraphqlSearchBodyInput = z.input<typeof graphqlSearchBodySchema>;
export type GraphqlSearchBody = z.infer<typeof graphqlSearchBodySchema>;

/** `variables` of the four queries (`protocols` is used by the position queries). */
export const graphqlVariablesSchema = zStrict({
  index: graphqlIndexSchema,
  protocols: zList(protocolIdSchema).optional(),
  body: graphqlSearchBodySchema.prefault({}),
});
export type GraphqlVariablesInput = z.input<typeof graphqlVariablesSchema>;
export type GraphqlVariables = z.infer<typeof graphqlVariablesSchema>;

/** `POST /graphql` body. */
export const graphqlRequestSchema = zStrict({
  // Some GraphQL clients send null for an anonymous operation.
  operationName: zText().nullish(),
  query: zNonEmpty(100_000),
  variables: graphqlVariablesSchema,
});
export type GraphqlRequestInput = z.input<typeof graphqlRequestSchema>;
export type GraphqlRequest = z.infer<typeof graphqlRequestSchema>;

/** One GraphQL error; `extensions.code` is a ServiceErrorCode from the local service (tolerant reader). */
export const graphqlErrorSchema = z.looseObject({
  message: zText(),
  path: zList(z.union([zText(), zNumber()], { error: expected('a string or a number') })).optional(),
  extensions: z.looseObject({ code: zText().optional() }).optional(),
});
export type GraphqlError = z.infer<typeof graphqlErrorSchema>;
export const graphqlErrorsSchema = zList(graphqlErrorSchema);

/** Thrown by unwrapGraphqlPage when the answer has no page, with GraphQL's own messages if any. */
export class GraphqlPageError extends Error {
  constructor(
    message: string,
    readonly errors: GraphqlError[] = [],
  ) {
    super(message);
    this.name = 'GraphqlPageError';
  }
}

/**
 * The page of a GraphQL answer, nested `{data: {<queryName>: {data, meta}}}` (what the local
 * service writes) or flat `{data, meta}` (also seen). Items are checked with `item` when given.
 * @throws GraphqlPageError when neither shape is there.
 */
export function unwrapGraphqlPage<T = unknown>(
  queryName: GraphqlQueryName,
  body: unknown,
  item?: z.ZodType<T>,
): { data: T[]; meta: PageMeta } {
  const root = isRecord(body) ? body : {};
  const nested = isRecord(root.data) ? root.data[queryName] : undefined;
  const parsed = paged(item ?? z.unknown()).safeParse(nested ?? root);
  if (parsed.success) return parsed.data as { data: T[]; meta: PageMeta };
  const errors = graphqlErrorsSchema.safeParse(root.errors);
  if (errors.success && errors.data.length > 0) {
    throw new GraphqlPageError(errors.data.map((e) => e.message).join('; '), errors.data);
  }
  const first = parsed.error.issues[0];
  const where = first ? ` (${first.path.join('.') || 'page'} ${first.message})` : '';
  throw new GraphqlPageError(`the ${queryName} answer has no {data, meta} page${where}`);
}

/** Page meta of GraphQL answers: the same four numbers as REST pages. */
export const graphqlPageMetaSchema = pageMetaSchema;
