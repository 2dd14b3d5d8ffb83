import type { z } from 'zod';
import type { GraphqlQueryName } from '../../../shared/api/graphql';
import { orderSchema, positionSchema } from '../../../shared/api/positions';
import { positionStatisticSchema } from '../../../shared/api/statistics';

const fieldsOf = (schema: z.ZodObject) => Object.keys(schema.shape).join(' ');

/** Every field of each item type, as a GraphQL selection: what the contract's item schemas read. */
export const GRAPHQL_SELECTIONS: Readonly<Record<GraphqlQueryName, string>> = {
  searchTopOpeningPosition: fieldsOf(positionSchema),
  livePosition: fieldsOf(positionSchema),
  searchOrders: fieldsOf(orderSchema),
  searchPositionStatistic: fieldsOf(positionStatisticSchema),
};

/** The position queries take `protocols`; the others do not. */
export const takesProtocols = (name: GraphqlQueryName): boolean =>
  name === 'searchTopOpeningPosition' || name === 'livePosition';

/** `query Search($index, [$protocols,] $body) { <name>(...) { data { <selection> } meta { ... } } }`. */
export function searchQueryText(name: GraphqlQueryName, selection: string): string {
  const protocols = takesProtocols(name);
  return [
    `query Search($index: String!, ${protocols ? '$protocols: [String!], ' : ''}$body: SearchPayload) {`,
    `  ${name}(index: $index, ${protocols ? 'protocols: $protocols, ' : ''}body: $body) {`,
    `    data { ${selection} }`,
    '    meta { total limit offset totalPages }',
    '  }',
    '}',
  ].join('\n');
}
