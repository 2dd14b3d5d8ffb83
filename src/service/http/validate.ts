import type { z } from 'zod';
import { describeIssues } from '../../shared/validation';
import { ServiceError } from './errors';

/** Validates a request part with the contract's schema, or throws a 400 that names field and rule. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ServiceError('VALIDATION_FAILED', describeIssues(parsed.error, root));
  return parsed.data;
}
