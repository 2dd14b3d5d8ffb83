import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { SERVICE_ERROR_STATUS, type ServiceErrorCode } from '../../shared/api/common';

// The decided error codes and their HTTP status live in the contract (docs/api.md, Errors).
const statusOf = SERVICE_ERROR_STATUS;
export type { ServiceErrorCode };

/** A failure the service answers with the decided body; `message` names the field and the rule. */
export class ServiceError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.statusCode = options.status ?? statusOf[code];
    this.headers = options.headers ?? {};
  }
}

/** The body of every non-2xx answer. */
export function errorBody(statusCode: number, code: string, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, code };
}

/** An answer given to a failure before the decided mapping, e.g. 503 PREPARING for a busy store. */
export interface SpecialAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: object;
}

/**
 * Installs the error and not-found handlers so that every failure, including Fastify's own
 * (bad JSON, oversized body, wrong content type), answers the decided body and never leaks a stack.
 * `special` may answer a failure itself first (src/service/http/preparing-guard.ts).
 */
export function installErrorHandlers(
  app: FastifyInstance,
  special: (error: unknown, request: FastifyRequest) => SpecialAnswer | null = () => null,
): void {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    const answer = special(error, request);
    if (answer) return void reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
    const mapped = error instanceof ServiceError ? error : fromFastifyError(error);
    if (mapped.code === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    void reply
      .code(mapped.statusCode)
      .headers(mapped.headers)
      .send(errorBody(mapped.statusCode, mapped.code, mapped.message));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(
        errorBody(
          404,
          'NOT_FOUND',
          `${request.method} ${request.url.split('?')[0]} is not an endpoint of this service`,
        ),
      );
  });
}

function fromFastifyError(error: FastifyError): ServiceError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // 413 keeps the closed code list of docs/api.md: the body broke a validation rule.
      return new ServiceError('VALIDATION_FAILED', 'the request body must be at most 1 MiB', { status: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(
        'VALIDATION_FAILED',
        'the request body must be JSON (Content-Type: application/json)',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(
        'VALIDATION_FAILED',
        'the request body must not be empty when Content-Type is JSON',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('VALIDATION_FAILED', 'the request body is not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ServiceError('VALIDATION_FAILED', 'the request body is not valid JSON');
  }
  return new ServiceError('INTERNAL', 'the service failed to answer; the error is in its log');
}
