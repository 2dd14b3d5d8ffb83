import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor } from '../support/credentials';
import { loginCopyUser, type CopyUser } from '../support/copy-session';

let svc: RunningService;
let alice: CopyUser;
let bob: CopyUser;
beforeAll(async () => {
  svc = await startTestService();
  alice = await loginCopyUser(svc);
  bob = await loginCopyUser(svc);
});
afterAll(() => svc.close());

/** Opens `GET /events` and collects the parsed `event:`/`data:` frames as they arrive. */
async function openStream(token: string) {
  const controller = new AbortController();
  const res = await fetch(`${svc.url}/events`, {
    headers: { authorization: token },
    signal: controller.signal,
  });
  const frames: { event: string; data: Record<string, unknown> }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) frames.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
  })();
  return { res, frames, close: () => controller.abort() };
}

describe('GET /events', () => {
  it('pushes a settled withdrawal to its owner only', async () => {
    const mine = await openStream(alice.token);
    const theirs = await openStream(bob.token);
    expect(mine.res.status).toBe(200);
    expect(mine.res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const res = await postJson(
      `${svc.url}/embedded-wallets/perpx/withdraw`,
      { sourceAddress: alice.embeddedWallet, destinationAddress: '0x' + '2'.repeat(40), amount: 100 },
      { authorization: alice.token },
    );
    expect(res.status).toBe(201);
    await expect.poll(() => mine.frames.length).toBe(1);
    expect(mine.frames[0]).toMatchObject({
      event: 'withdrawalSettled',
      data: { withdrawal: { status: 'SUCCESSFUL', userId: alice.id } },
    });
    expect(theirs.frames).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('needs a logged-in user', async () => {
    expect((await fetch(`${svc.url}/events`)).status).toBe(401);
    expect((await fetch(`${svc.url}/events`, { headers: { 'x-api-key': apiKeyFor(svc) } })).status).toBe(401);
  });
});
