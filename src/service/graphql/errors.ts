import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { ServiceError, type ServiceErrorCode } from '../http/errors';

/** A GraphQL error as answered: GraphQL's own shape with `extensions.code` (docs/api.md, Errors). */
export type AnsweredError = GraphQLFormattedError & { extensions: { code: ServiceErrorCode } };

const INTERNAL_MESSAGE = 'the service failed to answer this field; the error is in its log';

/**
 * Adds `extensions.code` to a GraphQL error:
 * - thrown by a resolver as a ServiceError: its code and message (they name the field and rule);
 * - raised while executing otherwise (SQL, a value that does not fit the schema): INTERNAL, with
 *   a fixed message so that no SQL or stack leaves the service; `log` gets the real error;
 * - raised before execution (syntax, validation, variables, operation name): VALIDATION_FAILED.
 */
export function answeredError(error: GraphQLError, log: (error: GraphQLError) => void): AnsweredError {
  const formatted = error.toJSON();
  const original = error.originalError;
  if (original instanceof ServiceError) {
    return {
      ...formatted,
      message: original.message,
      extensions: { ...formatted.extensions, code: original.code },
    };
  }
  if (error.path !== undefined) {
    log(error);
    return { ...formatted, message: INTERNAL_MESSAGE, extensions: { code: 'INTERNAL' } };
  }
  return { ...formatted, extensions: { ...formatted.extensions, code: 'VALIDATION_FAILED' } };
}
