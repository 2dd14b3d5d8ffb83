// HTTP helpers for the copy-trading tests: a service on a fixed clock, real wallet logins, and
// calls that return status, headers and the parsed body.
import { expect } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { createApiKey } from '../../src/service/auth/api-keys';
import type { ServiceConfig } from '../../src/service/config';
import { exchangeOf } from '../../src/shared/profile';
import { postJson, startTestService, type RunningService } from './service';

/** The moment every copy-trading test starts at, so that windows and timestamps are exact. */
export const FIXED_NOW = Date.parse('2026-03-02T12:00:00.000Z');

/** A real service over HTTP whose clock stands at FIXED_NOW. */
export async function startCopyService(overrides: Partial<ServiceConfig> = {}): Promise<RunningService> {
  const svc = await startTestService(overrides);
  svc.clock.ms = FIXED_NOW;
  return svc;
}

/** A logged-in user with their token and embedded wallet. */
export interface CopyUser {
  id: string;
  address: string;
  token: string;
  walletId: string;
  embeddedWallet: string;
}

/** Logs a fresh wallet in over HTTP (login, sign, verify-login), as the terminal does. */
export async function loginCopyUser(svc: RunningService): Promise<CopyUser> {
  const account = privateKeyToAccount(generatePrivateKey());
  const code = await postJson(`${svc.url}/auth/web3/login`, { address: account.address });
  const time = svc.clock.now().toISOString();
  const message = loginMessage(svc.service.config.serviceName, time, code.body.verifyCode as string);
  const sign = await account.signMessage({ message });
  const res = await postJson(`${svc.url}/auth/web3/verify-login`, { address: account.address, sign, time });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  const id = res.body.id as string;
  const wallet = svc.service.db
    .prepare('SELECT id, embedded_wallet FROM copy_wallets WHERE user_id = ? AND is_embedded = 1')
    .get(id) as { id: string; embedded_wallet: string };
  return {
    id,
    address: account.address,
    token: res.body.access_token as string,
    walletId: wallet.id,
    embeddedWallet: wallet.embedded_wallet,
  };
}

/** A new API key of the running service (it carries no user). */
export const apiKeyOf = (svc: RunningService): string => createApiKey(svc.service.db, svc.clock.now());

/** An answer: status, headers and the parsed JSON body (typed by the caller). */
export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** What a request carries besides method and path. */
export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the service; `token` goes in Authorization, `body` is sent as JSON when given. */
export async function call<T = Record<string, unknown>>(
  svc: RunningService,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = options.token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${svc.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** The decided error body with this status and code; `mentions` must match the message. */
export function expectError(res: Answer<unknown>, status: number, code: string, mentions?: RegExp): void {
  expect(res.body, JSON.stringify(res.body)).toEqual({
    statusCode: status,
    error: expect.any(String),
    message: expect.any(String),
    code,
  });
  expect(res.status).toBe(status);
  if (mentions) expect((res.body as { message: string }).message).toMatch(mentions);
}

/** A valid create body for `user`'s embedded wallet; `patch` overrides or (with undefined) removes fields. */
export function tradeBody(svc: RunningService, user: CopyUser, patch: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = {
    title: 'Follow the whale',
    volume: 100,
    account: '0x1111111111111111111111111111111111111111',
    leverage: 10,
    protocol: 'NOVA_ARB',
    exchange: exchangeOf(svc.service.config.venue),
    copyWalletId: user.walletId,
    type: 'COPY_TRADER',
    excludingTokenAddresses: [],
    tokenAddresses: [],
    ...patch,
  };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete body[key];
  return body;
}
