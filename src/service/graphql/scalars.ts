import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/**
 * A scalar holding any JSON value, from a variable or written inline in the query. It checks
 * nothing: the resolver validates the value with the contract's zod schema, whose messages name
 * the wrong field ("body.paging.size must be at most 1000").
 */
export function jsonScalar(name: string, description: string): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast, variables) => plain(valueFromASTUntyped(ast, variables)),
  });
}

/** Inline objects come back with a null prototype; rebuild them as ordinary objects. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

/**
 * The `body` argument of the four searches: `{filter: {and}, sorts, paging}` as JSON. Named
 * `SearchPayload` as upstream deployments name it, so one query text
 * (`query Search($index: String!, $protocols: [String!]!, $body: SearchPayload!)`) works against
 * this service and theirs.
 */
export const SearchPayloadScalar = jsonScalar(
  'SearchPayload',
  'A search body as JSON: {filter: {and: [conditions]}, sorts, paging: {size, from}}.',
);
