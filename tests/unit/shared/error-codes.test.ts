import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR_CODES, SERVICE_ERROR_STATUS } from '../../../src/shared/api/common';
import { appErrorCodes, TERMINAL_ERROR_CODES } from '../../../src/shared/result';
import { requestJson, ServiceRequestError } from '../../../src/main/core/client/http';

// The service's codes are written once (SERVICE_ERROR_CODES) and the terminal's own once
// (TERMINAL_ERROR_CODES); the terminal's list is derived. These fail if a code is restated or lost.
describe('error codes', () => {
  it('the app knows every service code, then its own, each once', () => {
    expect([...appErrorCodes]).toEqual([...SERVICE_ERROR_CODES, ...TERMINAL_ERROR_CODES]);
    expect(new Set(appErrorCodes).size).toBe(appErrorCodes.length);
  });

  it('no terminal code restates a service code', () => {
    const service = new Set<string>(SERVICE_ERROR_CODES);
    expect(TERMINAL_ERROR_CODES.filter((code) => service.has(code))).toEqual([]);
  });

  it('every service code, and only those, has an HTTP status', () => {
    expect(Object.keys(SERVICE_ERROR_STATUS).sort()).toEqual([...SERVICE_ERROR_CODES].sort());
  });
});

describe('a service error answer, over HTTP', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    // GET /<code>/<status> answers the service's error body with that code and status.
    server = createServer((req, res) => {
      const [, code = '', status = '500'] = (req.url ?? '').split('/');
      res.writeHead(Number(status), { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: Number(status), error: 'Error', message: `said ${code}`, code }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const failure = async (path: string): Promise<ServiceRequestError> => {
    const error = await requestJson({ baseUrl, timeoutMs: 5000 }, { method: 'GET', path }, z.unknown()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceRequestError);
    return error as ServiceRequestError;
  };

  it.each(SERVICE_ERROR_CODES)('%s reaches the terminal unchanged', async (code) => {
    const error = await failure(`/${code}/${SERVICE_ERROR_STATUS[code]}`);
    expect(error.code).toBe(code);
    expect(error.status).toBe(SERVICE_ERROR_STATUS[code]);
    expect(error.message).toBe(`The service says: said ${code}`);
  });

  it('a code the terminal does not know falls back to the status', async () => {
    expect((await failure('/SOMETHING_NEW/409')).code).toBe('CONFLICT');
    expect((await failure('/SOMETHING_NEW/404')).code).toBe('NOT_FOUND');
  });
});
