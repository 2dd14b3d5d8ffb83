import type { z } from 'zod';
import { isAppErrorCode, type AppErrorCode } from '../../../shared/result';
import { describeIssues } from '../../../shared/validation';
import { preparingProgressSchema, type PreparingProgress } from '../../../shared/api/preparing';
import { CoreError } from '../errors';

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A non-2xx answer of the service, carrying its status and its own message to the user. */
export class ServiceRequestError extends CoreError {
  constructor(
    code: AppErrorCode,
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
    /** Where a service answering 503 PREPARING is in preparing its data (docs/core.md). */
    readonly preparing: PreparingProgress | null = null,
  ) {
    super(code, message);
    this.name = 'ServiceRequestError';
  }
}

/**
 * One HTTP exchange with a deployment: JSON in, JSON out, a timeout, and every failure turned
 * into a ServiceRequestError whose message a trader can read.
 */
export async function requestJson<S extends z.ZodType>(
  options: HttpOptions,
  spec: RequestSpec,
  schema: S,
): Promise<z.output<S>> {
  const response = await send(options, spec);
  const json = parseJson(await response.text());
  if (!response.ok) throw answerError(response, json);
  return checkAnswer(schema, json, spec, response.status);
}

/**
 * A request as plain data: built where the credentials are (the core's thread) and sent from
 * wherever its answer is wanted — a bulk download's batches are fetched by the batch reader, on
 * its own thread, so that their megabytes never touch the core's (docs/core-cache.md).
 */
export interface HttpRequest {
  baseUrl: string;
  url: string;
  method: RequestSpec['method'];
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** The plain request of `spec` to the deployment of `options`. */
export function httpRequest(options: HttpOptions, spec: RequestSpec): HttpRequest {
  return {
    baseUrl: options.baseUrl,
    url: new URL(spec.path, options.baseUrl).toString(),
    method: spec.method,
    headers: {
      accept: 'application/json',
      ...(spec.body !== undefined && { 'content-type': 'application/json' }),
      ...spec.headers,
    },
    ...(spec.body !== undefined && { body: JSON.stringify(spec.body) }),
    timeoutMs: options.timeoutMs,
  };
}

/**
 * requestJson without the parse: a 2xx answer's body comes back as bytes, for a caller that
 * parses and checks it elsewhere (bulk downloads do it on the batch reader, with checkAnswer).
 * Failures are the same ServiceRequestErrors.
 */
export async function fetchBytes(request: HttpRequest, doFetch: typeof fetch = fetch): Promise<ArrayBuffer> {
  const response = await sendRequest(request, doFetch);
  if (!response.ok) throw answerError(response, parseJson(await response.text()));
  return response.arrayBuffer();
}

/** The answer `json` to `spec` checked against its schema; a ServiceRequestError when it does not fit. */
export function checkAnswer<S extends z.ZodType>(
  schema: S,
  json: unknown,
  spec: Pick<RequestSpec, 'method' | 'path'>,
  status: number,
): z.output<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ServiceRequestError(
      'INTERNAL',
      `The service answered ${spec.method} ${spec.path} with a shape Copydesk does not understand: ${describeIssues(parsed.error, 'answer')}`,
      status,
    );
  }
  return parsed.data;
}

const send = (options: HttpOptions, spec: RequestSpec): Promise<Response> =>
  sendRequest(httpRequest(options, spec), options.fetch ?? fetch);

async function sendRequest(request: HttpRequest, doFetch: typeof fetch): Promise<Response> {
  try {
    return await doFetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined && { body: request.body }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    throw networkError(request, error);
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function networkError(
  options: Pick<HttpRequest, 'baseUrl' | 'timeoutMs'>,
  error: unknown,
): ServiceRequestError {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ServiceRequestError(
      'TIMEOUT',
      `The service at ${options.baseUrl} did not answer within ${options.timeoutMs / 1000} s.`,
      null,
    );
  }
  const cause =
    ((error as { cause?: { code?: string } })?.cause?.code ?? (error as Error)?.message) || 'no answer';
  return new ServiceRequestError(
    'OFFLINE',
    `The service at ${options.baseUrl} is not reachable (${cause}).`,
    null,
  );
}

/** Reads the decided error body, and the "also seen" variant whose message is an array. */
function answerError(response: Response, json: unknown): ServiceRequestError {
  const body = (typeof json === 'object' && json !== null ? json : {}) as {
    message?: unknown;
    code?: unknown;
    preparing?: unknown;
  };
  const message = Array.isArray(body.message)
    ? body.message.map(String).join('; ')
    : typeof body.message === 'string'
      ? body.message
      : `HTTP ${response.status} ${response.statusText}`;
  const code = isAppErrorCode(body.code) ? body.code : codeOfStatus(response.status);
  const retryAfter = Number(response.headers.get('retry-after'));
  const preparing = preparingProgressSchema.safeParse(body.preparing);
  return new ServiceRequestError(
    code,
    `The service says: ${message}`,
    response.status,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    preparing.success ? preparing.data : null,
  );
}

function codeOfStatus(status: number): AppErrorCode {
  if (status === 400 || status === 422) return 'VALIDATION_FAILED';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  return 'INTERNAL';
}
