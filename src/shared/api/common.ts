// Primitives shared by every resource of the service API (docs/api.md).
// Every message is the second half of a sentence: errors render as `<path> <message>`,
// e.g. "pagination.limit must be at most 500". zod's default wording never reaches a user.
import { z } from 'zod';

/** zod `error` param: "is required" when the value is missing, else "must be <what>". */
export function expected(what: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`);
}

/** A string. */
export const zText = () => z.string({ error: expected('a string') });
/** A non-empty string of at most `max` characters. */
export const zNonEmpty = (max = 200) =>
  zText()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });
/** A finite number (zod already rejects NaN and Infinity). */
export const zNumber = () => z.number({ error: expected('a number') });
/** A safe integer. */
export const zInt = () => z.int({ error: expected('an integer') });
/** A count: an integer ≥ 0. */
export const zCount = () => zInt().min(0, { error: 'must be at least 0' });
/** A boolean. */
export const zBool = () => z.boolean({ error: expected('true or false') });
/** An array of `item`. */
export const zList = <T extends z.ZodType>(item: T) => z.array(item, { error: expected('an array') });
/** An array of `item` with at most `max` entries; the message names the cap. */
export const zCappedList = <T extends z.ZodType>(item: T, max: number) =>
  zList(item).max(max, { error: `must have at most ${max} entries` });
/** Conditions in one filter list (`queries`, `ranges`): each is an AND SQLite compiles. */
export const FILTER_CONDITIONS_MAX = 100;
/** Values of one `in`/`nin` list. */
export const FILTER_VALUES_MAX = 1000;
/** Values bound by all the `in`/`nin` lists of one body (SQLite binds a finite number). */
export const FILTER_BOUND_VALUES_MAX = 5000;
/** Sort keys of one body (`sorts`, search-after `sort`). */
export const SORT_KEYS_MAX = 10;
/** One of `values`; the message lists them. */
export const zOneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: expected(`one of ${values.join(', ')}`) });

/** Message for a strict object: names the unknown fields instead of zod's wording. */
function objectError(issue: { code?: string; input?: unknown; keys?: string[] }): string {
  if (issue.code !== 'unrecognized_keys') return expected('an object')(issue);
  const keys = (issue.keys ?? []).map((k) => `"${k}"`).join(', ');
  return `must not contain unknown field${(issue.keys ?? []).length === 1 ? '' : 's'} ${keys}`;
}

/** A request object: unknown fields are rejected (strict writer, docs/api.md). */
export const zStrict = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape, { error: objectError });
/** A resource object: unknown fields from other deployments are dropped, not rejected (tolerant reader). */
export const zObject = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: expected('an object') });

/** A field name from `fields`; the message names the unknown one (cut short: it is user input). */
export function fieldNameSchema(fields: readonly string[]) {
  const known = new Set(fields);
  return zText().superRefine((name, ctx) => {
    if (!known.has(name))
      ctx.addIssue({ code: 'custom', message: `must be a known field, not "${name.slice(0, 60)}"` });
  });
}

/** ISO 8601 UTC timestamp with milliseconds, as the service writes every `...At`/`...Time`. */
export const isoTimestampSchema = z.iso.datetime({
  offset: false,
  precision: 3,
  error: expected('an ISO 8601 UTC timestamp with milliseconds (2024-01-31T12:00:00.000Z)'),
});
export type IsoTimestamp = z.infer<typeof isoTimestampSchema>;

/** A 0x EVM address: what wallets sign with and withdraw to. */
export const evmAddressSchema = zText().regex(/^0x[0-9a-fA-F]{40}$/, {
  error: 'must be a 0x address of 40 hex digits',
});
export type EvmAddress = z.infer<typeof evmAddressSchema>;

/** A trader or wallet address: 0x EVM, or another chain's 20..100 letters and digits. */
export const addressSchema = zText().regex(/^(?:0x[0-9a-fA-F]{40}|(?!0x)[A-Za-z0-9]{20,100})$/, {
  error: "must be a 0x address of 40 hex digits or another chain's address of 20 to 100 letters and digits",
});
export type Address = z.infer<typeof addressSchema>;

/** Protocol identifier, UPPER_SNAKE_CASE (the ~57 known ones are checked by the service). */
export const protocolIdSchema = zText()
  .max(64, { error: 'must be at most 64 characters' })
  .regex(/^[A-Z][A-Z0-9_]*$/, { error: 'must be an UPPER_SNAKE_CASE protocol id' });
export type ProtocolId = z.infer<typeof protocolIdSchema>;

/** Statistic windows. */
export const WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'] as const;
export const windowSchema = zOneOf(WINDOWS);
export type Window = z.infer<typeof windowSchema>;

/** Sort direction. */
export const SORT_TYPES = ['asc', 'desc'] as const;
export const sortTypeSchema = zOneOf(SORT_TYPES);
export type SortType = z.infer<typeof sortTypeSchema>;

/** Position and copy position states. */
export const POSITION_STATUSES = ['OPEN', 'CLOSE'] as const;
export const positionStatusSchema = zOneOf(POSITION_STATUSES);
export type PositionStatus = z.infer<typeof positionStatusSchema>;

/** Page size bounds (docs/api.md: default 20, maximum 500). */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 500;
export const limitSchema = zInt()
  .min(1, { error: 'must be at least 1' })
  .max(PAGE_LIMIT_MAX, { error: `must be at most ${PAGE_LIMIT_MAX}` });
export const offsetSchema = zInt().min(0, { error: 'must be at least 0' });

/** `{limit, offset}` with defaults; the whole object may be omitted. */
export const paginationSchema = zStrict({
  limit: limitSchema.default(PAGE_LIMIT_DEFAULT),
  offset: offsetSchema.default(0),
}).prefault({});
export type PaginationInput = z.input<typeof paginationSchema>;
export type Pagination = z.infer<typeof paginationSchema>;

/** An integer that may arrive as numeric text (query strings). */
export const fromQueryText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), schema);

/** `limit`/`offset` given in a query string; both optional, no defaults (the body may carry them). */
export const paginationQuerySchema = zStrict({
  limit: fromQueryText(limitSchema).optional(),
  offset: fromQueryText(offsetSchema).optional(),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

/** A filter value: equality and set filters accept any of these, coerced by the field's type. */
export const scalarSchema = z.union([zText(), zNumber(), zBool()], {
  error: expected('a string, a number or a boolean'),
});
export type Scalar = z.infer<typeof scalarSchema>;

/** Equality filter `{fieldName, value}`; `fields` restricts the names when given. */
export const queryFilterSchema = (fields?: readonly string[]) =>
  zStrict({ fieldName: fields ? fieldNameSchema(fields) : zNonEmpty(), value: zText() });
export type QueryFilter = z.infer<ReturnType<typeof queryFilterSchema>>;

const RANGE_OPERATORS = ['gte', 'lte', 'gt', 'lt', 'in', 'nin'] as const;
// Bounds may be numbers, numeric text or ISO timestamps: the service coerces by the field's type.
const rangeBound = z.union([zNumber(), zText()], { error: expected('a number or a string') });

/** Range condition `{fieldName, gte?, lte?, gt?, lt?, in?, nin?}` with at least one operator. */
export const rangeConditionSchema = (fields?: readonly string[]) =>
  zStrict({
    fieldName: fields ? fieldNameSchema(fields) : zNonEmpty(),
    gte: rangeBound.optional(),
    lte: rangeBound.optional(),
    gt: rangeBound.optional(),
    lt: rangeBound.optional(),
    in: zCappedList(scalarSchema, FILTER_VALUES_MAX).optional(),
    nin: zCappedList(scalarSchema, FILTER_VALUES_MAX).optional(),
  }).superRefine((range, ctx) => {
    if (RANGE_OPERATORS.every((op) => range[op] === undefined)) {
      ctx.addIssue({ code: 'custom', message: `must have at least one of ${RANGE_OPERATORS.join(', ')}` });
    }
  });
export type RangeCondition = z.infer<ReturnType<typeof rangeConditionSchema>>;

/** Which names `sortBy` and `queries[].fieldName` may take; any non-empty name when omitted. */
export interface PagedFilterOptions {
  sortFields?: readonly string[];
  queryFields?: readonly string[];
}

/**
 * Shape of a paged filter body: pagination, sortBy, sortType (default desc), queries.
 * `sortBy` is optional: the service applies the resource's default sort.
 */
export const pagedFilterShape = (opts: PagedFilterOptions = {}) => ({
  pagination: paginationSchema,
  sortBy: (opts.sortFields ? fieldNameSchema(opts.sortFields) : zNonEmpty()).optional(),
  sortType: sortTypeSchema.default('desc'),
  queries: zCappedList(queryFilterSchema(opts.queryFields), FILTER_CONDITIONS_MAX).default([]),
});

/** A paged filter body with any field names (resource bodies restrict them). */
export const pagedFilterBodySchema = zStrict(pagedFilterShape());
export type PagedFilterBodyInput = z.input<typeof pagedFilterBodySchema>;
export type PagedFilterBody = z.infer<typeof pagedFilterBodySchema>;

/** Page meta `{limit, offset, total, totalPages}`; totalPages = ceil(total / limit). */
export const pageMetaSchema = zObject({
  limit: zCount(),
  offset: zCount(),
  total: zCount(),
  totalPages: zCount(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** A paged list response `{data: [item], meta}`. */
export const paged = <T extends z.ZodType>(item: T) => zObject({ data: zList(item), meta: pageMetaSchema });
export interface Paged<T> {
  data: T[];
  meta: PageMeta;
}

/** Error codes a service answers with (docs/api.md, Errors); the terminal adds its own in result.ts. */
export const SERVICE_ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'QUOTA_EXCEEDED',
  'INSUFFICIENT_BALANCE',
  'PIT_EXPIRED',
  'RATE_LIMITED',
  'INTERNAL',
  // 503 while the local service prepares its data (docs/service.md, Listening while preparing).
  'PREPARING',
] as const;
export const serviceErrorCodeSchema = zOneOf(SERVICE_ERROR_CODES);
export type ServiceErrorCode = z.infer<typeof serviceErrorCodeSchema>;

/** HTTP status of each error code. */
export const SERVICE_ERROR_STATUS: Readonly<Record<ServiceErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  QUOTA_EXCEEDED: 409,
  INSUFFICIENT_BALANCE: 409,
  PIT_EXPIRED: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PREPARING: 503,
};

/** The error body the local service writes for every non-2xx answer. */
export const serviceErrorBodySchema = zStrict({
  statusCode: zInt().min(400, { error: 'must be at least 400' }).max(599, { error: 'must be at most 599' }),
  error: zNonEmpty(),
  message: zNonEmpty(1000),
  code: serviceErrorCodeSchema,
});
export type ServiceErrorBody = z.infer<typeof serviceErrorBodySchema>;

/** Tolerant reader of error bodies: `message` may be an array of strings (docs/api.md, Also seen). */
export const tolerantErrorBodySchema = z.looseObject({
  statusCode: zNumber().optional(),
  error: zText().optional(),
  message: z.union([zText(), zList(zText())], { error: expected('a string or an array of strings') }),
  code: zText().optional(),
});
export type TolerantErrorBody = z.infer<typeof tolerantErrorBodySchema>;

/** One line of text from a tolerant error body's message. */
export const errorBodyText = (body: TolerantErrorBody): string =>
  typeof body.message === 'string' ? body.message : body.message.join('; ');
