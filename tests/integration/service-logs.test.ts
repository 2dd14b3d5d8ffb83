import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginMessage } from '../../src/shared/api/auth';
import { createApiKey } from '../../src/service/auth/api-keys';
import { createLocalService, type LocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';

const ADMIN_KEY = 'admin-key-that-must-not-be-logged-0123456789';
const modeOf = (path: string) => statSync(path).mode & 0o777;

let dir: string;
let logDir: string;
let service: LocalService;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-logs-'));
  logDir = join(dir, 'data', 'logs');
  service = createLocalService(
    defaultConfig({
      port: 0,
      dbPath: join(dir, 'data', 'service', 'service.db'),
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      adminKey: ADMIN_KEY,
    }),
    { logDir },
  );
  // An internal failure with a cause, as a failing store would raise it.
  service.app.get('/test-only/boom', () => {
    throw new Error('the statistics query failed', { cause: new Error('SQLITE_IOERR: disk I/O error') });
  });
  url = await service.listen();
});

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const logText = () =>
  readdirSync(logDir)
    .map((name) => readFileSync(join(logDir, name), 'utf8'))
    .join('\n');

describe('the service log (docs/security.md, Logs)', () => {
  it('logs an internal error with its cause, in a 0600 file of a 0700 folder', async () => {
    const response = await fetch(`${url}/test-only/boom`);
    expect(response.status).toBe(500);
    const lines = logText()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string; stack: string } });
    const failure = lines.find((l) => l.msg === 'unhandled error');
    expect(failure?.level).toBe(50);
    expect(failure?.err?.message).toContain('the statistics query failed');
    expect(JSON.stringify(failure)).toContain('SQLITE_IOERR: disk I/O error');
    expect(modeOf(logDir)).toBe(0o700);
    for (const name of readdirSync(logDir)) expect(modeOf(join(logDir, name))).toBe(0o600);
  });

  it('writes one access line per request: method, path without its query, status, time, id', async () => {
    const marker = `/health?probe=${Date.now()}`;
    expect((await fetch(`${url}${marker}`)).status).toBe(200);
    expect((await fetch(`${url}/no-such-route`)).status).toBe(404);
    const lines = logText()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
    const health = lines.filter((l) => l.url === '/health');
    expect(health).toHaveLength(1);
    expect(health[0]).toMatchObject({ msg: 'request completed', method: 'GET', statusCode: 200, level: 30 });
    expect(typeof health[0]?.responseTime).toBe('number');
    expect(typeof health[0]?.reqId).toBe('string');
    expect(lines.filter((l) => l.url === '/no-such-route')).toMatchObject([{ statusCode: 404 }]);
    expect(logText()).not.toContain('probe=');
  });

  it('never writes the wallet key, a token or an API key', async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const code = (await (await post('/auth/web3/login', { address: account.address })).json()) as {
      verifyCode: string;
    };
    const time = new Date().toISOString();
    const sign = await account.signMessage({
      message: loginMessage(service.config.serviceName, time, code.verifyCode),
    });
    const login = await post('/auth/web3/verify-login', { address: account.address, sign, time });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const apiKey = createApiKey(service.db, new Date());
    const bearer = { authorization: `Bearer ${token}` };
    // Reads and writes with each credential, right and wrong, and bodies that hold secrets.
    await fetch(`${url}/copy-wallets/list`, { headers: bearer });
    await fetch(`${url}/copy-wallets/list?token=${token}`, {
      headers: { authorization: `bearer  ${token}` },
    });
    await post('/statistic/search-after', { junk: privateKey }, { 'x-api-key': apiKey });
    await post('/statistic/search-after', {}, { 'x-api-key': `${apiKey}x` });
    await post('/sandbox/prices', { privateKey, token, apiKey }, { 'x-admin-key': ADMIN_KEY, ...bearer });
    await post('/auth/web3/verify-login', { address: account.address, sign: `${sign}00`, time, privateKey });
    await fetch(`${url}/test-only/boom`, { headers: { ...bearer, 'x-api-key': apiKey } });
    const text = logText();
    expect(text.length).toBeGreaterThan(0);
    expect(text).toContain('/copy-wallets/list');
    for (const secret of [token, apiKey, privateKey, privateKey.slice(2), ADMIN_KEY, sign])
      expect(text).not.toContain(secret);
  });
});
