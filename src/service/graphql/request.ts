import { z } from 'zod';
import { graphqlRequestSchema } from '../../shared/api/graphql';
import { describeIssues } from '../../shared/validation';
import { ServiceError } from '../http/errors';
import type { GraphqlOperation } from './execute';

/**
 * Checks the HTTP envelope `{operationName?, query, variables}` with the contract's
 * `graphqlRequestSchema` and answers 400 with the decided body when it is malformed.
 *
 * Problems *inside* a variable's value (`variables.index`, `.protocols`, `.body`) are left to
 * GraphQL: the resolvers check the same values with the same contract rules and answer them as
 * GraphQL errors naming the index, protocol or field (docs/api.md, GraphQL). That also lets a
 * client write arguments inline in the query instead of passing them as variables. When the
 * contract accepts every variable, its parse travels along (`contractVariables`), so the plain
 * search does not parse the body a second time (docs/graphql.md, "Speed").
 */
export function graphqlOperationOf(body: unknown): GraphqlOperation {
  const parsed = graphqlRequestSchema.safeParse(body);
  if (parsed.success)
    return { ...parsed.data, variables: rawVariables(body), contractVariables: parsed.data.variables };
  const envelopeIssues = parsed.error.issues.filter((issue) => !insideVariable(issue.path));
  if (envelopeIssues.length > 0)
    throw new ServiceError('VALIDATION_FAILED', describeIssues(new z.ZodError(envelopeIssues)));
  const { query, operationName } = body as { query: string; operationName?: string | null };
  return { query, operationName, variables: rawVariables(body) };
}

/** `variables.<name>.…` or `variables.<name>`: a variable's value, not the envelope. */
const insideVariable = (path: readonly PropertyKey[]): boolean => path.length >= 2 && path[0] === 'variables';

/** The variables as sent: GraphQL coerces them itself, and the resolvers apply the contract. */
function rawVariables(body: unknown): Record<string, unknown> {
  return (body as { variables: Record<string, unknown> }).variables;
}
