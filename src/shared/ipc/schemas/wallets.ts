import { z } from 'zod';
import { evmAddressSchema, zNumber, zStrict } from '../../api/common';
import {
  copyWalletBaseSchema,
  withdrawalDataBaseSchema,
  withdrawRequestSchema,
} from '../../api/copy-wallets';
import { cached } from './freshness';

/**
 * `wallets:list`: the user's copy wallets and embedded wallets. Items are the tolerant records of
 * the API (venue accounts and embedded fields included as the service sent them).
 */
export const walletsListSchema = cached(
  z.object({
    copyWallets: z.array(copyWalletBaseSchema.loose()),
    embedded: z.array(copyWalletBaseSchema.loose()),
  }),
);

/** `withdraw:preview`: the fee breakdown before anything is sent (docs/api.md, Copy wallets and withdrawal). */
export const withdrawPreviewRequestSchema = zStrict({
  sourceAddress: evmAddressSchema,
  amount: zNumber().gt(0, { error: 'must be greater than 0' }),
});
export const withdrawPreviewSchema = z.object({
  amount: z.number(),
  feeAmount: z.number(),
  transferFee: z.number(),
  withdrawFee: z.number(),
  withdrawAmount: z.number(),
  receiveAmount: z.number(),
  /** Smallest amount accepted: 5 + all fees. */
  minimum: z.number(),
  availableBalance: z.number(),
  /** Why the amount cannot be withdrawn as it stands, or null when it can. */
  problem: z.string().nullable(),
  /** Where the fees come from: the service's fee endpoint, or the profile's configured fees. */
  feeSource: z.enum(['service', 'profile']),
});
export type WithdrawPreview = z.infer<typeof withdrawPreviewSchema>;

/**
 * `withdraw:submit`. `idempotencyKey`: made once when the user confirms this withdrawal (a UUID)
 * and sent again with every retry of it, so that a retry after a timeout never pays twice; the
 * core sends it as the Idempotency-Key. Without one the core makes one, good for this call only.
 */
export const withdrawSubmitRequestSchema = zStrict({
  ...withdrawRequestSchema.shape,
  idempotencyKey: z.uuid({ error: 'must be a UUID' }).optional(),
});

/**
 * The terminal's status of a withdrawal it sent but whose answer it does not have yet (timed out,
 * or the terminal stopped): settled later from the same key or the service's `withdrawalSettled`.
 */
export const WITHDRAWAL_SUBMITTING = 'SUBMITTING';

/** A withdrawal as the terminal lists it (the venue's fee fields under generic names). */
export const withdrawalRecordSchema = z.object({
  id: z.string(),
  status: z.string(),
  createdAt: z.string(),
  sourceAddress: z.string(),
  data: withdrawalDataBaseSchema.loose(),
  transferFee: z.number(),
  withdrawFee: z.number(),
  /** Why the service refused it (status FAILED, nothing paid); absent for the service's own records. */
  problem: z.string().optional(),
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecordSchema>;
export const withdrawalsListSchema = cached(z.array(withdrawalRecordSchema));
