import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService, type LocalService } from '../../src/service/app';
import { defaultConfig, type ServiceConfig } from '../../src/service/config';

/** A clock the test moves by hand, instead of sleeping. */
export class TestClock {
  constructor(public ms: number = Date.now()) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface RunningService {
  url: string;
  service: LocalService;
  clock: TestClock;
  dir: string;
  close(): Promise<void>;
}

/** Starts a real local service over HTTP on a free port with its own SQLite file. */
export async function startTestService(overrides: Partial<ServiceConfig> = {}): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-service-'));
  const clock = new TestClock();
  const service = createLocalService(
    defaultConfig({
      port: 0,
      dbPath: join(dir, 'service.db'),
      now: clock.now,
      // Tests send bursts from one credential; the rate-limit and search-budget tests set their own.
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      searchBudget: { msPerSecond: 10_000_000, burstMs: 10_000_000 },
      ...overrides,
    }),
  );
  const url = await service.listen();
  return {
    url,
    service,
    clock,
    dir,
    close: async () => {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON and returns status, headers and the parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/**
 * postJson from another local address: `from` is a loopback address other than 127.0.0.1
 * (127.0.0.2…: Linux routes all of 127.0.0.0/8 to the loopback device), so the service sees a
 * second client machine. Node's fetch cannot pick its local address; node:http can.
 */
export function postJsonFrom(
  from: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  /** A keep-alive agent, for a caller that sends many (a bench); by default one connection a request. */
  agent?: Agent,
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Record<string, unknown> }>(
    (done, fail) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          localAddress: from,
          ...(agent && { agent }),
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            done({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
            }),
          );
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      request.end(text);
    },
  );
}
