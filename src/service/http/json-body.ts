import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors';

const RAW_BODY = Symbol('rawBody');
type WithRawBody = FastifyRequest & { [RAW_BODY]?: string };

/**
 * Parses JSON bodies and keeps their text: a statistic read that repeats a request it answered
 * before is recognised by its text, without parsing and validating it again.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    (request as WithRawBody)[RAW_BODY] = text;
    if (text.trim() === '')
      return done(
        new ServiceError('VALIDATION_FAILED', 'the request body must not be empty when Content-Type is JSON'),
        undefined,
      );
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ServiceError('VALIDATION_FAILED', 'the request body is not valid JSON'), undefined);
    }
  });
}

/** The text of the request's JSON body, or '' when it had none. */
export const rawBodyOf = (request: FastifyRequest): string => (request as WithRawBody)[RAW_BODY] ?? '';
