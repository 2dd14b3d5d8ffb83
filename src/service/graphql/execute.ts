import {
  execute,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { GraphqlVariables } from '../../shared/api/graphql';
import { documentCache, type CheckedDocument } from './document-cache';
import { answeredError, type AnsweredError } from './errors';
import { GRAPHQL_LIMITS, QueryCostRule } from './limits';
import type { GraphqlContext } from './resolvers';
import { answerPlainSearch, plainSearchPlan } from './plain-search';

/** A GraphQL request after the HTTP envelope was checked. */
export interface GraphqlOperation {
  query: string;
  operationName?: string | null;
  variables: Record<string, unknown>;
  /**
   * The variables as the contract's `graphqlVariablesSchema` parsed them, when the envelope's
   * check accepted them all (request.ts): the plain search reuses the parsed body.
   */
  contractVariables?: GraphqlVariables;
}

/** The answer body: `errors` (when any) first, as the GraphQL spec suggests, then `data`. */
export interface GraphqlAnswer {
  errors?: AnsweredError[];
  data?: Record<string, unknown> | null;
}

/**
 * Parses, validates and executes one operation. Parsing is bounded by a token count, and the
 * cost rule runs alone before graphql-js's rules, so a hostile document is refused before any
 * rule whose cost grows faster than its size gets to see it. Both are paid once per distinct
 * query text (document-cache.ts).
 */
export async function runGraphql(
  schema: GraphQLSchema,
  operation: GraphqlOperation,
  context: GraphqlContext,
  log: (error: GraphQLError) => void,
): Promise<GraphqlAnswer> {
  const answer = (errors: readonly GraphQLError[]): GraphqlAnswer => ({
    errors: errors.map((e) => answeredError(e, log)),
  });
  const checked = documentCache.get(schema, operation.query, () => checkDocument(schema, operation.query));
  if ('errors' in checked) return answer(checked.errors);
  return executeChecked(schema, checked.document, operation, context, log);
}

/**
 * The answer's text, as `JSON.stringify(await runGraphql(…))` would write it: a plain statistics
 * search is answered by plain-search.ts without graphql-js's execution (the same text, checked by
 * tests/integration/graphql-plain-search.test.ts), anything else by runGraphql.
 */
export async function answerGraphqlText(
  schema: GraphQLSchema,
  operation: GraphqlOperation,
  context: GraphqlContext,
  log: (error: GraphQLError) => void,
): Promise<string> {
  const checked = documentCache.get(schema, operation.query, () => checkDocument(schema, operation.query));
  if ('errors' in checked)
    return JSON.stringify({ errors: checked.errors.map((e) => answeredError(e, log)) });
  const plain = checked.plain ? answerPlainSearch(schema, checked.plain, operation, context) : null;
  if (plain !== null) return plain;
  return JSON.stringify(await executeChecked(schema, checked.document, operation, context, log));
}

async function executeChecked(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: GraphqlOperation,
  context: GraphqlContext,
  log: (error: GraphQLError) => void,
): Promise<GraphqlAnswer> {
  const result = await execute({
    schema,
    document,
    operationName: operation.operationName ?? undefined,
    variableValues: operation.variables,
    contextValue: context,
  });
  return {
    ...(result.errors && { errors: result.errors.map((e) => answeredError(e, log)) }),
    ...('data' in result && { data: result.data ?? null }),
  };
}

/** Parses and validates a query text: the part of a request paid once per distinct text. */
function checkDocument(schema: GraphQLSchema, query: string): CheckedDocument {
  const document = parseBounded(query);
  if (document instanceof GraphQLError) return { errors: [document] };
  const maxErrors = GRAPHQL_LIMITS.maxValidationErrors;
  for (const rules of [[QueryCostRule], specifiedRules]) {
    const errors = validate(schema, document, rules, { maxErrors });
    if (errors.length > 0) return { errors };
  }
  return { document, plain: plainSearchPlan(schema, document) };
}

function parseBounded(query: string): DocumentNode | GraphQLError {
  try {
    return parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
}
