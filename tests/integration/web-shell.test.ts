import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../../src/main/core/events';
import { MAX_EVENT_SOCKETS, startWebShell, type WebShell } from '../../src/main/web/server';
import { WEB_TOKEN_HEADER } from '../../src/shared';
import { rawRequest } from '../support/raw-http';

// The shell's guard is what is under test here; the core behind it answers with what it was asked.
const events = new CoreEvents();
const invoke = vi.fn(async (channel: unknown, request: unknown) => ({
  ok: true,
  value: { channel, request },
}));
let shell: WebShell;

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'copydesk-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Copydesk</title>');
  writeFileSync(join(rendererDir, 'app.js'), 'console.log(1)');
  events.emit('service:state', { state: 'ready', url: 'http://127.0.0.1:9', message: null });
  shell = await startWebShell({ core: { invoke, events } as never, rendererDir });
});
afterAll(() => shell.close());

const ipc = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${shell.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** A raw request, so the test can send a Host header that fetch would not let it forge. */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(shell.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const raw = (lines: string[], body?: string) => rawRequest(shell.origin, lines, body);

describe('web shell', () => {
  it('listens on 127.0.0.1 only and prints a URL carrying the token', () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect(shell.url).toContain(shell.token);
  });

  it('serves the built renderer with protective headers, and nothing outside it', async () => {
    const res = await fetch(`${shell.origin}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Copydesk</title>');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect((await fetch(`${shell.origin}/app.js`)).headers.get('content-type')).toMatch(/javascript/);
    expect(await rawGet('/..%2F..%2F..%2Fetc%2Fpasswd', { host: new URL(shell.origin).host })).toBe(404);
  });

  it('answers channel calls that carry the token', async () => {
    const res = await ipc('wallet:status', { a: 1 }, { [WEB_TOKEN_HEADER]: shell.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, value: { channel: 'wallet:status', request: { a: 1 } } });
  });

  it('refuses calls without the token or with a wrong one', async () => {
    invoke.mockClear();
    expect((await ipc('wallet:status', {})).status).toBe(401);
    expect((await ipc('wallet:status', {}, { [WEB_TOKEN_HEADER]: 'guess' })).status).toBe(401);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('refuses other origins even with the token', async () => {
    invoke.mockClear();
    const res = await ipc(
      'wallet:status',
      {},
      { [WEB_TOKEN_HEADER]: shell.token, origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect(await rawGet('/', { host: 'evil.example' })).toBe(403);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await fetch(`${shell.origin}/ipc/wallet:status`, {
      method: 'POST',
      headers: { [WEB_TOKEN_HEADER]: shell.token },
      body: '{',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it(`keeps at most ${MAX_EVENT_SOCKETS} event sockets open, closing the oldest`, async () => {
    const wsUrl = `${shell.origin.replace('http', 'ws')}/events?token=${shell.token}`;
    const open = (): Promise<{ ws: WebSocket; closed: Promise<number> }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { origin: shell.origin });
        const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
        ws.on('open', () => resolve({ ws, closed }));
        ws.on('error', reject);
      });
    const first = await open();
    const rest = [];
    for (let i = 0; i < MAX_EVENT_SOCKETS; i += 1) rest.push(await open());
    expect(await first.closed).toBe(1008);
    for (const { ws } of rest) expect(ws.readyState).toBe(WebSocket.OPEN);
    for (const { ws } of rest) ws.close();
  });

  it('pushes events over a WebSocket that needs the token, starting with the current state', async () => {
    const wsUrl = shell.origin.replace('http', 'ws') + '/events';
    const refused = new WebSocket(`${wsUrl}?token=wrong`);
    await expect(
      new Promise((resolve, reject) => {
        refused.on('open', resolve);
        refused.on('error', reject);
      }),
    ).rejects.toThrow(/403/);

    const ws = new WebSocket(`${wsUrl}?token=${shell.token}`, { origin: shell.origin });
    const frames: unknown[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    events.emit('session:changed', { loggedIn: false, session: null });
    await vi.waitFor(() => expect(frames).toHaveLength(2));
    expect(frames[0]).toEqual({
      event: 'service:state',
      payload: { state: 'ready', url: 'http://127.0.0.1:9', message: null },
    });
    expect(frames[1]).toEqual({ event: 'session:changed', payload: { loggedIn: false, session: null } });
    ws.close();

    const evil = new WebSocket(`${wsUrl}?token=${shell.token}`, { origin: 'https://evil.example' });
    await expect(
      new Promise((resolve, reject) => {
        evil.on('open', resolve);
        evil.on('error', reject);
      }),
    ).rejects.toThrow(/403/);
  });

  it('answers every malformed request target, and the next request as usual', async () => {
    expect(await raw(['GET /%ZZ HTTP/1.1'])).toBe(400);
    expect(await raw(['GET /assets/%E2 HTTP/1.1'])).toBe(400);
    expect(await raw(['GET //[ HTTP/1.1'])).toBe(400);
    expect(await raw(['GET * HTTP/1.1'])).toBe(400);
    expect(await raw(['POST /ipc/%ZZ HTTP/1.1'], '{}')).toBe(401);
    expect(await raw(['POST /ipc/%ZZ HTTP/1.1', `${WEB_TOKEN_HEADER}: ${shell.token}`], '{}')).toBe(400);
    expect(await raw(['GET //[ HTTP/1.1', 'Upgrade: websocket', 'Connection: Upgrade'])).toBe(403);
    const res = await ipc('app:info', {}, { [WEB_TOKEN_HEADER]: shell.token });
    expect(res.status).toBe(200);
  });

  it('answers 500 when the core throws, and goes on', async () => {
    invoke.mockRejectedValueOnce(new Error('a bug in a handler'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await ipc('app:info', {}, { [WEB_TOKEN_HEADER]: shell.token });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(error).toHaveBeenCalled();
    error.mockRestore();
    expect((await ipc('app:info', {}, { [WEB_TOKEN_HEADER]: shell.token })).status).toBe(200);
  });
});
