import type { FastifyInstance } from 'fastify';
import { getAddress, verifyMessage } from 'viem';
import { loginMessage, loginRequestSchema, verifyLoginRequestSchema } from '../../../shared/api/auth';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';
import {
  consumeLoginCode,
  issueLoginCode,
  LOGIN_CODE_PURGE_MS,
  outstandingLoginCodes,
  purgeExpiredLoginCodes,
} from '../../auth/login-codes';
import { signAccessToken } from '../../auth/access-tokens';
import { createUser, findUserByAddress } from '../../users/users';

/** How far the signed `time` may be from the service clock (docs/api.md). */
const TIME_WINDOW_MS = 5 * 60_000;

/** Wallet-signature login: a code to sign, then the signature for a token. No credentials. */
export function authRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  // Expired codes are deleted on every issue and, for addresses nobody asks again, every minute.
  const purge = setInterval(() => {
    try {
      purgeExpiredLoginCodes(ctx.db, ctx.config.now().getTime());
    } catch (error) {
      // A busy or closing store: the next issue or the next minute purges instead.
      app.log.warn({ err: error }, 'expired login codes could not be purged');
    }
  }, LOGIN_CODE_PURGE_MS);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  app.post('/auth/web3/login', async (request) => {
    const { address } = validate(loginRequestSchema, request.body);
    const verifyCode = issueLoginCode(ctx.db, getAddress(address), ctx.config.now().getTime());
    return { verifyCode };
  });

  app.post('/auth/web3/verify-login', async (request) => {
    const body = validate(verifyLoginRequestSchema, request.body);
    const address = getAddress(body.address);
    const now = ctx.config.now();
    const skew = Math.abs(Date.parse(body.time) - now.getTime());
    if (skew > TIME_WINDOW_MS) {
      throw new ServiceError(
        'UNAUTHORIZED',
        'time must be within 5 minutes of the service clock; check the device clock',
      );
    }
    const codes = outstandingLoginCodes(ctx.db, address, now.getTime());
    if (codes.length === 0) {
      throw new ServiceError(
        'UNAUTHORIZED',
        'there is no valid login code for this address: codes serve one login and expire after 5 minutes; call /auth/web3/login again',
      );
    }
    // Each outstanding code is tried; only the one the signature proves is taken, so a wrong
    // signature (anyone can send one) burns nothing.
    let signed = false;
    for (const { id, code } of codes) {
      const message = loginMessage(ctx.config.serviceName, body.time, code);
      const valid = await verifyMessage({ address, message, signature: body.sign as `0x${string}` }).catch(
        () => false,
      );
      if (valid) {
        signed = consumeLoginCode(ctx.db, id);
        break;
      }
    }
    if (!signed)
      throw new ServiceError(
        'UNAUTHORIZED',
        'sign is not a signature by this address of the login message with one of its outstanding codes',
      );
    const user =
      findUserByAddress(ctx.db, address) ??
      createUser(ctx.db, ctx.config, address, { referralCode: body.referralCode, brokerId: body.brokerId });
    if (user.isBlocked)
      throw new ServiceError(
        'FORBIDDEN',
        `this account is blocked${user.blockNote ? `: ${user.blockNote}` : ''}`,
      );
    return { ...user, access_token: await signAccessToken(ctx.secret, user.id, now) };
  });
}
