// GET /feed/status and POST /feed/accounts over HTTP: who may call them, how a bad body is named,
// adding and removing accounts (a removed one is no longer asked for, and keeps its data), and the
// answers of a service that runs without a feed.
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { feedStatusResponseSchema, type FeedStatus } from '../../src/shared/api/feed';
import { FakeHyperliquid } from '../support/fake-hyperliquid';
import { generateFills } from '../support/hyperliquid-fills';
import { startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, fillsOf } from '../support/feed-checks';
import { apiKeyFor } from '../support/credentials';
import { call, expectError, loginCopyUser } from '../support/copy-session';
import { startTestService, type RunningService } from '../support/service';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

const A = getAddress('0x' + 'e1'.repeat(20));
const B = getAddress('0x' + 'e2'.repeat(20));

/** Requests the venue was sent about `account`. */
const asked = (account: string) =>
  venue?.requests.filter((r) => r.user === account.toLowerCase()).length ?? 0;

describe('/feed over HTTP', () => {
  it('checks credentials, names what is wrong in a body, and adds and removes accounts', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 40 });
    const now = Date.now();
    for (const [i, account] of [A, B].entries())
      venue.setFills(
        account,
        generateFills({ account, seed: 60 + i, count: 80, startMs: now - 10 * DAY, endMs: now - 1000 }),
      );
    // No WebSocket (nothing listens there): every account is polled, so removing one has something to stop.
    service = await startFeedService(venue, { track: [A], wsUrl: 'ws://127.0.0.1:9/ws' });
    const svc = service;

    // Credentials: none → 401; an API key reads the status but cannot steer; a login can.
    expectError(await call(svc, 'GET', '/feed/status'), 401, 'UNAUTHORIZED');
    expectError(await call(svc, 'POST', '/feed/accounts', { body: { add: [B] } }), 401, 'UNAUTHORIZED');
    const key = { 'x-api-key': apiKeyFor(svc) };
    const read = await call<{ data: FeedStatus }>(svc, 'GET', '/feed/status', { headers: key });
    expect(read.status).toBe(200);
    expect(feedStatusResponseSchema.parse(read.body).data.accounts.map((a) => a.account)).toEqual([A]);
    expectError(
      await call(svc, 'POST', '/feed/accounts', { headers: key, body: { add: [B] } }),
      401,
      'UNAUTHORIZED',
    );
    const user = await loginCopyUser(svc);
    const token = user.token;

    // Validation errors name the field.
    const post = (body: unknown) =>
      call<{ data: FeedStatus }>(svc, 'POST', '/feed/accounts', { token, body });
    expectError(
      await post({ add: ['0x1234'] }),
      400,
      'VALIDATION_FAILED',
      /add.*0x address of 40 hex digits/,
    );
    expectError(await post({ add: [B], also: true }), 400, 'VALIDATION_FAILED', /also/);
    expectError(await post({}), 400, 'VALIDATION_FAILED', /add.*at least one account in add or remove/);
    expectError(await post({ add: [], remove: [] }), 400, 'VALIDATION_FAILED', /at least one account/);
    expectError(await post({ remove: B }), 400, 'VALIDATION_FAILED', /remove/);
    expect(svc.service.feed?.status().accounts.map((a) => a.account)).toEqual([A]);

    // Adding: the answer is the status with the account in it, and it is backfilled.
    const added = await post({ add: [B.toLowerCase()] });
    expect(added.status).toBe(200);
    expect(feedStatusResponseSchema.parse(added.body).data.accounts).toEqual([
      expect.objectContaining({ account: A, reasons: ['user'] }),
      expect.objectContaining({ account: B, reasons: ['user'] }),
    ]);
    await waitForFeed(svc, (s) => s.accounts.length === 2 && s.accounts.every((a) => a.backfilled));
    const db = svc.service.db;
    expect(fillsOf(db, B)).toHaveLength(80);
    // Both are polled now.
    const askedB = asked(B);
    await waitForFeed(svc, () => asked(B) > askedB, 10_000);

    // Removing B: it leaves the status, is asked nothing more, and keeps its data.
    const removed = await post({ remove: [B] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.accounts.map((a) => a.account)).toEqual([A]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a request already on its way
    const [afterB, afterA] = [asked(B), asked(A)];
    const interval = svc.service.feed?.status().pollIntervalMs ?? 0;
    expect(interval).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, interval + 1_000));
    expect(asked(A)).toBeGreaterThan(afterA); // polling went on, for A
    expect(asked(B)).toBe(afterB);
    expect(fillsOf(db, B)).toHaveLength(80);
    expect(
      db.prepare('SELECT COUNT(*) FROM positions WHERE account = ?').pluck().get(B) as number,
    ).toBeGreaterThan(0);
  });

  it("without a feed: the status is 'off' and tracking answers 409", async () => {
    service = await startTestService({ seedFixture: false });
    const key = { 'x-api-key': apiKeyFor(service) };
    const read = await call<{ data: FeedStatus }>(service, 'GET', '/feed/status', { headers: key });
    expect(read.status).toBe(200);
    expect(feedStatusResponseSchema.parse(read.body).data).toMatchObject({
      venue: 'hyperliquid',
      state: 'off',
      accounts: [],
      budget: { weightPerMinute: 0, usedLastMinute: 0 },
    });
    expectError(await call(service, 'GET', '/feed/status'), 401, 'UNAUTHORIZED');
    const user = await loginCopyUser(service);
    const tracked = await call(service, 'POST', '/feed/accounts', { token: user.token, body: { add: [A] } });
    expectError(tracked, 409, 'CONFLICT', /--feed hyperliquid/);
    // A bad body is still named first.
    expectError(
      await call(service, 'POST', '/feed/accounts', { token: user.token, body: { add: ['nope'] } }),
      400,
      'VALIDATION_FAILED',
      /add/,
    );
  });
});
