import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { createApiKey } from '../../src/service/auth/api-keys';
import { postJson, type RunningService } from './service';

/** Logs a wallet in over HTTP, the way the terminal does; returns the user and its token. */
export async function loginAs(svc: RunningService, privateKey: `0x${string}` = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey);
  const { body: code } = await postJson(`${svc.url}/auth/web3/login`, { address: account.address });
  const time = svc.clock.now().toISOString();
  const sign = await account.signMessage({
    message: loginMessage(svc.service.config.serviceName, time, code.verifyCode as string),
  });
  const { status, body } = await postJson(`${svc.url}/auth/web3/verify-login`, {
    address: account.address,
    sign,
    time,
  });
  if (status !== 200) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return {
    user: body as { id: string; username: string; access_token: string },
    token: body.access_token as string,
    address: account.address,
  };
}

/** A new API key for the running service. */
export const apiKeyFor = (svc: RunningService): string => createApiKey(svc.service.db, svc.clock.now());
