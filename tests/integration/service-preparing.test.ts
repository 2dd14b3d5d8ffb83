// Issue #20 item 1: the local service listens at once and prepares its data after, in a worker
// thread (docs/service.md, Listening while preparing). Started here as the terminal starts it
// (LocalServiceProcess, the real command line, a real SQLite file), with the demo world's seeding
// slowed by its test hook: tokens and login answer while it prepares, a statistics read answers
// 503 PREPARING with Retry-After naming the step, the core's client waits that out, and after the
// preparation everything answers. A second start has nothing to prepare and is ready at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../../src/main/core/events';
import { LocalServiceProcess } from '../../src/main/core/local-service/service-process';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { localProfile } from '../../src/main/core/profiles/profile-manager';
import { loginMessage } from '../../src/shared/api/auth';
import { healthResponseSchema, preparingErrorBodySchema } from '../../src/shared/api/preparing';
import { DEFAULT_SERVICE_NAME } from '../../src/shared/profile';
import { DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import type { EventPayload } from '../../src/shared';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-preparing-'));
const dbPath = join(dir, 'service.db');
const processes: LocalServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** The demo world's seeding made this much slower (its test hook, docs/testing.md). */
const SLOW_SEED_MS = 4_000;

function startService(db = dbPath, args = ['--demo']) {
  const events = new CoreEvents();
  const states: EventPayload<'service:state'>[] = [];
  events.on('service:state', (s) => states.push(s));
  const service = new LocalServiceProcess({
    dbPath: db,
    events,
    args,
    env: { COPYDESK_TEST_SLOW_SEED_MS: String(SLOW_SEED_MS) },
  });
  processes.push(service);
  return { service, states };
}

async function getJson(url: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** The demo user's login, as the terminal does it: a code, a signed message, a token. */
async function login(url: string): Promise<string> {
  const account = privateKeyToAccount(DEMO_PRIVATE_KEY);
  const code = await postJson(`${url}/auth/web3/login`, { address: account.address });
  expect(code.status).toBe(200);
  const time = new Date().toISOString();
  const sign = await account.signMessage({
    message: loginMessage(DEFAULT_SERVICE_NAME, time, String(code.body.verifyCode)),
  });
  const verified = await postJson(`${url}/auth/web3/verify-login`, { address: account.address, sign, time });
  expect(verified.status).toBe(200);
  return String(verified.body.access_token);
}

/** Where the service says it is: its preparation's step, or null once prepared. */
async function preparingStep(url: string): Promise<string | null> {
  const health = healthResponseSchema.parse((await getJson(`${url}/health`)).body);
  return health.preparing?.step ?? null;
}

/** A protocol of the demo world (docs/simulator.md). */
const PROTOCOL = 'NOVA_ARB';
const statisticsPath = `/${PROTOCOL}/position/statistic/filter`;

describe('the local service while it prepares its data', () => {
  it('listens first, answers tokens and login throughout, 503 PREPARING for statistics, then everything', async () => {
    const { service, states } = startService();
    const url = await service.start();
    // Listening, and still preparing: the core says "starting", not "ready".
    expect(states.at(-1)?.state).toBe('starting');
    expect(states.some((s) => s.state === 'ready')).toBe(false);
    expect(await preparingStep(url)).not.toBeNull();
    // When the core took the preparation for done, and when its client got the data (ms).
    let preparedAt = Infinity;
    const prepared = service.prepared().then(() => (preparedAt = performance.now()));

    // Login (its writes included) and tokens answer at once.
    const token = await login(url);
    const tokens = await getJson(`${url}/pairs/tokens`);
    expect(tokens.status).toBe(200);
    expect(Object.keys((tokens.body as { data: object }).data).length).toBeGreaterThanOrEqual(8);

    // A statistics read: 503 with Retry-After, the decided error body naming the step.
    const refused = await postJson(`${url}${statisticsPath}`, {}, { authorization: token });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = preparingErrorBodySchema.parse(refused.body);
    expect(body.code).toBe('PREPARING');
    expect(body.message).toContain(`step ${body.preparing.step}`);
    expect(body.message).toContain(`POST ${statisticsPath}`);

    // The core's client, asked meanwhile, waits the preparation out and gets the data.
    const client = new ServiceClient(localProfile(url), {
      credentials: staticCredentials({ accessToken: token }),
    });
    let clientAnsweredAt = Infinity;
    const viaClient = client.statisticFilter(PROTOCOL, {}).then((page) => {
      clientAnsweredAt = performance.now();
      return page;
    });

    // Until the preparation ends, tokens and logins keep answering, through every step: the
    // worker's short transactions leave the service's own writes room. A login that outwaits
    // SQLite's busy timeout during the worker's one long write (statistics) is told to retry
    // (503 PREPARING, docs/service.md); never a 500.
    const steps = new Set<string>();
    const tokenAnswers: number[] = [];
    const loginAnswers: { step: string; status: number; code: unknown }[] = [];
    /** When the last health request that was answered "preparing" was sent. */
    let lastPreparingAskedAt = 0;
    for (;;) {
      const askedAt = performance.now();
      const step = await preparingStep(url);
      if (step === null) break;
      lastPreparingAskedAt = askedAt;
      steps.add(step);
      tokenAnswers.push((await getJson(`${url}/pairs/tokens`)).status);
      const code = await postJson(`${url}/auth/web3/login`, {
        address: privateKeyToAccount(DEMO_PRIVATE_KEY).address,
      });
      loginAnswers.push({ step, status: code.status, code: code.body.code });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(tokenAnswers.length).toBeGreaterThan(10);
    expect(tokenAnswers.every((status) => status === 200)).toBe(true);
    const retried = loginAnswers.filter((a) => a.status !== 200);
    expect(
      retried.every((a) => a.status === 503 && a.code === 'PREPARING'),
      JSON.stringify(retried),
    ).toBe(true);
    // While the rows are written (short transactions) every login answered at once.
    const duringRows = loginAnswers.filter((a) => a.step === 'positions');
    expect(duringRows.length).toBeGreaterThan(3);
    expect(duringRows.every((a) => a.status === 200)).toBe(true);
    expect([...steps]).toEqual(expect.arrayContaining(['prices', 'positions']));

    // Prepared: the core says ready, and the statistics answer.
    await vi.waitFor(() => expect(states.at(-1)?.state).toBe('ready'), { timeout: 30_000 });
    await prepared;
    const page = await viaClient;
    expect(page.meta.total).toBeGreaterThan(0);
    // Neither the core nor its client took the service for prepared while it still said otherwise.
    expect(preparedAt).toBeGreaterThan(lastPreparingAskedAt);
    expect(clientAnsweredAt).toBeGreaterThan(lastPreparingAskedAt);
    const answered = await postJson(`${url}${statisticsPath}`, {}, { authorization: token });
    expect(answered.status).toBe(200);
    expect((answered.body.meta as { total: number }).total).toBe(page.meta.total);
    await service.stop();
  }, 240_000);

  it('has nothing to prepare on a second start: ready at its first line, statistics at once', async () => {
    const { service, states } = startService();
    const url = await service.start();
    expect(states.map((s) => s.state)).toEqual(['starting', 'ready']);
    expect(await preparingStep(url)).toBeNull();
    const token = await login(url);
    const answered = await postJson(`${url}${statisticsPath}`, {}, { authorization: token });
    expect(answered.status).toBe(200);
    await service.stop();
  }, 60_000);

  it('prepares the small fixture world before it listens, as before: no worker is worth it', async () => {
    const { service, states } = startService(join(dir, 'fixture.db'), []);
    const url = await service.start();
    expect(states.map((s) => s.state)).toEqual(['starting', 'starting', 'ready']);
    expect(states[1]?.message).toBe('Preparing the market world: fixture 0%');
    expect(await preparingStep(url)).toBeNull();
    const token = await login(url);
    const answered = await postJson(`${url}${statisticsPath}`, {}, { authorization: token });
    expect(answered.status).toBe(200);
    await service.stop();
  }, 60_000);
});
