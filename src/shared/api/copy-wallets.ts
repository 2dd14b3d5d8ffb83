// Copy wallets and embedded-wallet withdrawal (docs/api.md, Copy wallet, Withdrawal record;
// docs/api.md, Copy wallets and withdrawal).
//
// The venue's name is part of field names (`<venue>: {...}`, `<venue>WithdrawFeeAmount`), and it
// comes from the service profile, so these schemas are built by functions of the venue.
import { z } from 'zod';
import {
  evmAddressSchema,
  isoTimestampSchema,
  zBool,
  zNonEmpty,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';

/** A venue identifier as it appears in paths and field names: lowercase letters and digits. */
export const venueSchema = zText().regex(/^[a-z][a-z0-9]*$/, {
  error: 'must be lowercase letters and digits',
});

/** The wallet's account on the venue. `apiKey` is absent for embedded wallets. */
export const venueAccountSchema = zObject({
  apiKey: zText().nullish(),
  embeddedWallet: evmAddressSchema.nullish(),
  isEmbedded: zBool(),
  verified: zBool(),
});
export type VenueAccount = z.infer<typeof venueAccountSchema>;

const copyWalletShape = {
  id: zNonEmpty(),
  userId: zNonEmpty(),
  name: zText(),
  exchange: zText(),
  balance: zNumber(),
  // Balance minus the margin held by open copy positions.
  availableBalance: zNumber(),
  createdAt: isoTimestampSchema,
};

/** The wallet fields other than the venue object. */
export const copyWalletBaseSchema = zObject(copyWalletShape);
/** A copy wallet; its venue object sits under the venue's key (read it with venueAccountOf). */
export type CopyWallet = z.infer<typeof copyWalletBaseSchema> & { [venueKey: string]: unknown };
/** An embedded-list wallet: adds realised PnL of the last 24 h and total PnL (with unrealised). */
export type EmbeddedCopyWallet = CopyWallet & { pnl24h: number; totalPnl: number };

function checkedVenue(venue: string): string {
  const parsed = venueSchema.safeParse(venue);
  if (!parsed.success || venue in copyWalletShape) {
    throw new Error(`venue "${venue}" must be lowercase letters and digits and not a wallet field name`);
  }
  return venue;
}

// The venue object is optional: wallets on other exchanges have none.
const walletShape = (venue: string) => ({
  ...copyWalletShape,
  [checkedVenue(venue)]: venueAccountSchema.optional(),
});

/** A copy wallet of `venue` (`/copy-wallets/list` item). @throws on a malformed venue. */
export function copyWalletSchema(venue: string): z.ZodType<CopyWallet> {
  return zObject(walletShape(venue)) as unknown as z.ZodType<CopyWallet>;
}

/** `/copy-wallets/<venue>-embedded/list` item. @throws on a malformed venue. */
export function embeddedCopyWalletSchema(venue: string): z.ZodType<EmbeddedCopyWallet> {
  return zObject({
    ...walletShape(venue),
    pnl24h: zNumber(),
    totalPnl: zNumber(),
  }) as unknown as z.ZodType<EmbeddedCopyWallet>;
}

/** The wallet's venue object, if it has one. */
export function venueAccountOf(wallet: CopyWallet, venue: string): VenueAccount | undefined {
  return venueAccountSchema.safeParse(wallet[venue]).data;
}

/** The largest withdrawal one request may ask for, USD (docs/copy-trading-api.md, Bounds). */
export const WITHDRAW_AMOUNT_MAX = 1_000_000_000;

/** `POST /embedded-wallets/<venue>/withdraw` body (balance and minimum are checked by the service). */
export const withdrawRequestSchema = zStrict({
  sourceAddress: evmAddressSchema,
  destinationAddress: evmAddressSchema,
  amount: zNumber()
    .gt(0, { error: 'must be greater than 0' })
    .max(WITHDRAW_AMOUNT_MAX, { error: `must be at most ${WITHDRAW_AMOUNT_MAX}` }),
});
export type WithdrawRequest = z.infer<typeof withdrawRequestSchema>;

/** Withdrawal states: SUCCESSFUL when settled. */
export const WITHDRAWAL_STATUSES = ['SUCCESSFUL', 'PENDING', 'FAILED'] as const;
export const withdrawalStatusSchema = zOneOf(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>;

/** The venue's two fee field names in a withdrawal record's `data`. */
export const venueFeeKeys = (venue: string) =>
  ({ withdrawFee: `${venue}WithdrawFeeAmount`, transferFee: `${venue}TransferFeeAmount` }) as const;

const withdrawalDataShape = {
  destinationAddress: evmAddressSchema,
  // Null until the step has happened (PENDING) or when it never did (FAILED).
  chargeFeeTime: isoTimestampSchema.nullable(),
  chargeFeeTxHash: zText().nullable(),
  withdrawTime: isoTimestampSchema.nullable(),
  txHash: zText().nullable(),
  amount: zNumber(),
  // The service's fee.
  feeAmount: zNumber(),
  // amount − feeAmount − transfer fee.
  withdrawAmount: zNumber(),
  // withdrawAmount − withdraw fee.
  receiveAmount: zNumber(),
};
/** Withdrawal `data` without the venue fee fields. */
export const withdrawalDataBaseSchema = zObject(withdrawalDataShape);

/** Withdrawal `data`; the venue fees sit under venueFeeKeys(venue). */
export type WithdrawalData = z.infer<typeof withdrawalDataBaseSchema> & { [venueFee: string]: unknown };
/** A withdrawal record. */
export interface Withdrawal {
  userId: string;
  embeddedWallet: string;
  data: WithdrawalData;
  type: 'WITHDRAW';
  status: WithdrawalStatus;
  createdAt: string;
}

/** The withdrawal record of `venue` (withdraw answer). @throws on a malformed venue. */
export function withdrawalSchema(venue: string): z.ZodType<Withdrawal> {
  const fees = venueFeeKeys(checkedVenue(venue));
  return zObject({
    userId: zNonEmpty(),
    embeddedWallet: evmAddressSchema,
    data: zObject({ ...withdrawalDataShape, [fees.withdrawFee]: zNumber(), [fees.transferFee]: zNumber() }),
    type: z.literal('WITHDRAW', { error: 'must be WITHDRAW' }),
    status: withdrawalStatusSchema,
    createdAt: isoTimestampSchema,
  }) as unknown as z.ZodType<Withdrawal>;
}

/** The venue's withdraw and transfer fees of a parsed record. */
export function withdrawalVenueFees(
  record: Withdrawal,
  venue: string,
): { withdrawFee: number; transferFee: number } {
  const keys = venueFeeKeys(venue);
  const fee = (key: string) => (typeof record.data[key] === 'number' ? (record.data[key] as number) : 0);
  return { withdrawFee: fee(keys.withdrawFee), transferFee: fee(keys.transferFee) };
}
