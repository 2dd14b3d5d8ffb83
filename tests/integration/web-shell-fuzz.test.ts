// Every route of the web shell, sent random input as an attacker on this machine would (issue 15,
// item 11): IPC calls on every channel and on made-up ones with random bodies, tokens, origins and
// content types; random file paths and methods; raw request targets and WebSocket upgrades that no
// client library would write. The shell is a process of its own with its real core and local
// service; no answer is a 5xx, and the process answers the next request after all of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEB_TOKEN_HEADER } from '../../src/shared';
import { channelNames } from '../../src/shared/ipc/names';
import { isolatedKeychain, requireKeychainSession } from '../support/keychain';
import { rawRequest } from '../support/raw-http';
import { startWebShell, WEB_SHELL_SOURCE, type WebShell } from '../support/web-shell';

const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-shell-fuzz-'));
const { service: keychainService } = isolatedKeychain();
let shell: WebShell;
const origin = () => new URL(shell.url).origin;
const token = () => new URL(shell.url).searchParams.get('token') ?? '';

beforeAll(async () => {
  requireKeychainSession();
  shell = await startWebShell(
    dataDir,
    keychainService,
    ['--world', 'empty', '--static'],
    60_000,
    {},
    WEB_SHELL_SOURCE,
  );
  await vi.waitFor(() => expect(shell.output()).toContain('local service ready'), { timeout: 60_000 });
}, 90_000);
afterAll(() => {
  if (shell.child.exitCode === null) shell.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const body = fc.oneof(
  fc.constant(''),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .object({ maxDepth: 2 })
    .map((v) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{', 'null', '[]', '{"__proto__":{"x":1}}', '{"limit":1e400}', '\u0000', 'a'.repeat(5000)),
);
const credential = fc.constantFrom('token', 'none', 'wrong', 'empty');
const channel = fc.oneof(
  fc.constantFrom(...channelNames),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('app:info/..', '..%2F..%2Fetc%2Fpasswd', '%ZZ', 'constructor', '__proto__'),
);

function headersFor(kind: string, contentType: string, foreignOrigin: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (kind === 'token') headers[WEB_TOKEN_HEADER] = token();
  if (kind === 'wrong') headers[WEB_TOKEN_HEADER] = `${token().slice(0, -1)}x`;
  if (kind === 'empty') headers[WEB_TOKEN_HEADER] = '';
  if (foreignOrigin) headers.origin = 'http://evil.example';
  return headers;
}

async function stillAnswers(): Promise<void> {
  const info = await fetch(`${origin()}/ipc/app:info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEB_TOKEN_HEADER]: token() },
    body: '{}',
  });
  expect(info.status).toBe(200);
  expect(shell.child.exitCode).toBeNull();
}

describe('the web shell under random requests', () => {
  it('answers every IPC channel, with any body and credential, with no 5xx', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        channel,
        body,
        credential,
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-16'),
        fc.boolean(),
        async (name, payload, kind, contentType, foreign) => {
          const response = await fetch(`${origin()}/ipc/${name}`, {
            method: 'POST',
            headers: headersFor(kind, contentType, foreign),
            body: payload,
          });
          const text = await response.text();
          if (response.status >= 500)
            failures.push(
              `${name} (${kind}) ${payload.slice(0, 120)} → ${response.status} ${text.slice(0, 200)}`,
            );
          return response.status < 500;
        },
      ),
      { numRuns: 400, seed: 1511 },
    );
    expect(failures).toEqual([]);
    await stillAnswers();
  }, 120_000);

  it('answers random paths, methods and query strings for files with no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 20 }).map(encodeURIComponent),
            fc.constantFrom('..', '.', 'assets', 'index.html', '%2e%2e'),
          ),
          { maxLength: 5 },
        ),
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
        async (segments, method, query) => {
          const q = new URLSearchParams(query).toString();
          const response = await fetch(`${origin()}/${segments.join('/')}${q ? `?${q}` : ''}`, { method });
          await response.arrayBuffer();
          return response.status < 500;
        },
      ),
      { numRuns: 200, seed: 1512 },
    );
    await stillAnswers();
  }, 120_000);

  it('answers raw request targets and WebSocket upgrades that no client would send, with no 5xx', async () => {
    const target = fc.oneof(
      // Printable ASCII without spaces: what fits in a request line.
      fc.stringMatching(/^[!-~]{1,40}$/),
      fc.constantFrom(
        '*',
        '//[',
        '/%',
        '/%ZZ/%E2',
        '/ipc/',
        '/ipc/%00',
        '/events?token=x',
        'http://evil/ipc/app:info',
      ),
    );
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(target, fc.boolean(), credential, async (path, upgrade, kind) => {
        const lines = [`${upgrade ? 'GET' : 'POST'} ${path} HTTP/1.1`];
        if (upgrade)
          lines.push(
            'Upgrade: websocket',
            'Connection: Upgrade',
            'Sec-WebSocket-Version: 13',
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          );
        if (kind === 'token') lines.push(`${WEB_TOKEN_HEADER}: ${token()}`);
        // A status line of any kind is an answer; the socket never hangs or resets without one.
        const status = await rawRequest(origin(), lines, upgrade ? '' : '{}');
        if (status >= 500) failures.push(`${lines.join(' | ')} → ${status}`);
        return status < 500;
      }),
      { numRuns: 200, seed: 1513 },
    );
    expect(failures).toEqual([]);
    await stillAnswers();
  }, 120_000);
});
