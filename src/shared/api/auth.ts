// Wallet-signature login (docs/api.md, Auth).
import type { z } from 'zod';
import {
  evmAddressSchema,
  isoTimestampSchema,
  zBool,
  zCount,
  zInt,
  zNonEmpty,
  zObject,
  zStrict,
  zText,
} from './common';

/** `POST /auth/web3/login` body. Login is EIP-191, so the address is a 0x address. */
export const loginRequestSchema = zStrict({ address: evmAddressSchema });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** `POST /auth/web3/login` answer (the schema; the spec's User example is wrong, docs/api.md). */
export const loginResponseSchema = zObject({ verifyCode: zNonEmpty() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** A 0x hex signature (65 bytes for EOAs; smart-wallet signatures may be longer). */
export const signatureSchema = zText().regex(/^0x(?:[0-9a-fA-F]{2})+$/, {
  error: 'must be a 0x-prefixed hex signature',
});

/** `POST /auth/web3/verify-login` body; `time` is the one in the signed message. */
export const verifyLoginRequestSchema = zStrict({
  address: evmAddressSchema,
  sign: signatureSchema,
  time: isoTimestampSchema,
  referralCode: zNonEmpty(64).optional(),
  brokerId: zNonEmpty(64).optional(),
});
export type VerifyLoginRequest = z.infer<typeof verifyLoginRequestSchema>;

/** The user, as verify-login answers it (with `access_token`, a JWT). */
export const userSchema = zObject({
  id: zNonEmpty(),
  username: zText(),
  role: zText(),
  isBlocked: zBool(),
  isActivated: zBool(),
  // Only meaningful when blocked; deployments write null or omit it otherwise.
  blockNote: zText().nullish(),
  referralCode: zText(),
  isSkippedReferral: zBool(),
  isAddedReferral: zBool(),
  copyTradeQuota: zCount(),
  plan: zInt(),
  createdAt: isoTimestampSchema,
  access_token: zNonEmpty(4096),
});
export type User = z.infer<typeof userSchema>;

/** The exact text the wallet signs: `I want to login on <serviceName> at <time>. Login code: <code>`. */
export function loginMessage(serviceName: string, time: string, verifyCode: string): string {
  return `I want to login on ${serviceName} at ${time}. Login code: ${verifyCode}`;
}
