import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceEventStream } from '../../../../../src/main/core/client/event-stream';

// A stand-in for the service's `/events`: refuses tokens other than `good`, then streams.
const open = new Set<ServerResponse>();
let url = '';
let requests: string[] = [];
const server = createServer((req, res) => {
  requests.push(String(req.headers.authorization));
  if (req.headers.authorization !== 'good') {
    res.writeHead(401, { 'content-type': 'application/json' });
    return res.end('{"message":"expired"}');
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(': connected\n\n');
  open.add(res);
  req.on('close', () => open.delete(res));
});
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function stream(token: { value: string | null }, renewTo: string | null) {
  const events: [string, unknown][] = [];
  const renew = vi.fn(async () => (token.value = renewTo));
  const opened = vi.fn();
  const s = new ServiceEventStream({
    baseUrl: async () => url,
    token: async () => token.value,
    renew,
    onEvent: (name, data) => events.push([name, data]),
    onOpen: opened,
    backoff: { baseMs: 20, maxMs: 50 },
  });
  return { s, events, renew, opened };
}

describe('the service event stream', () => {
  it('renews a refused token once, parses events split across chunks, and reconnects after a drop', async () => {
    requests = [];
    const token = { value: 'stale' as string | null };
    const { s, events, renew, opened } = stream(token, 'good');
    s.start();
    await vi.waitFor(() => expect(open.size).toBe(1));
    expect(renew).toHaveBeenCalledTimes(1);
    expect(requests).toEqual(['stale', 'good']);
    const [res] = [...open];
    res!.write('event: copyPositionOpened\ndata: {"copyPosition":');
    res!.write(
      '{"id":"c1"}}\n\n: heartbeat\n\nevent: activityLog\r\ndata: {"activityLog":{"type":"OPEN"}}\r\n\r\n',
    );
    res!.write('data: not json\n\n');
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events).toEqual([
      ['copyPositionOpened', { copyPosition: { id: 'c1' } }],
      ['activityLog', { activityLog: { type: 'OPEN' } }],
    ]);
    res!.end(); // the service restarts
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(2));
    await s.stop();
    expect(s.active).toBe(false);
    await vi.waitFor(() => expect(open.size).toBe(0));
  });

  it('stops when there is no session, or when signing in again fails', async () => {
    const none = stream({ value: null }, null);
    none.s.start();
    await vi.waitFor(() => expect(none.s.active).toBe(false));
    const refused = stream({ value: 'stale' }, null);
    refused.s.start();
    await vi.waitFor(() => expect(refused.s.active).toBe(false));
    expect(refused.renew).toHaveBeenCalledTimes(1);
  });
});
