// Withdrawal from an embedded wallet (docs/api.md, Copy wallets and withdrawal).
import { randomBytes, randomUUID } from 'node:crypto';
import {
  venueFeeKeys,
  withdrawRequestSchema,
  type Withdrawal,
  type WithdrawalStatus,
  type WithdrawRequest,
} from '../../shared/api/copy-wallets';
import { exchangeOf } from '../../shared/profile';
import type { ServiceConfig } from '../config';
import type { ServiceContext } from '../http/context';
import { ServiceError } from '../http/errors';
import { validate } from '../http/validate';
import type { ServiceDb } from '../store/database';
import type { UserRecord } from '../users/users';
import { adjustBalance, availableBalance, findEmbeddedWallet, type CopyWalletRow } from './copy-wallets';
import { hasUsdPrecision, isoOf, roundUsd, USD_DECIMALS } from './money';

interface WithdrawalRow {
  id: string;
  user_id: string;
  copy_wallet_id: string;
  embedded_wallet: string;
  destination_address: string;
  amount: number;
  fee_amount: number;
  transfer_fee: number;
  withdraw_fee: number;
  withdraw_amount: number;
  receive_amount: number;
  status: WithdrawalStatus;
  tx_hash: string | null;
  charge_fee_tx_hash: string | null;
  charge_fee_time_ms: number | null;
  withdraw_time_ms: number | null;
  idempotency_key: string | null;
  created_at_ms: number;
}

/** What a withdrawal answers, and whether it is the replay of an earlier one with the same key. */
export interface WithdrawOutcome {
  record: Withdrawal;
  replayed: boolean;
}

/** The smallest amount a user may withdraw: the base plus all three fees. */
export function minimumWithdrawal(config: ServiceConfig): number {
  const { service, transfer, withdraw } = config.withdrawFees;
  return roundUsd(config.withdrawBase + service + transfer + withdraw);
}

function toWithdrawal(row: WithdrawalRow, venue: string): Withdrawal {
  const fees = venueFeeKeys(venue);
  const timeOf = (ms: number | null) => (ms === null ? null : isoOf(ms));
  return {
    userId: row.user_id,
    embeddedWallet: row.embedded_wallet,
    data: {
      destinationAddress: row.destination_address,
      chargeFeeTime: timeOf(row.charge_fee_time_ms),
      chargeFeeTxHash: row.charge_fee_tx_hash,
      withdrawTime: timeOf(row.withdraw_time_ms),
      txHash: row.tx_hash,
      amount: row.amount,
      feeAmount: row.fee_amount,
      [fees.withdrawFee]: row.withdraw_fee,
      [fees.transferFee]: row.transfer_fee,
      withdrawAmount: row.withdraw_amount,
      receiveAmount: row.receive_amount,
    },
    type: 'WITHDRAW',
    status: row.status,
    createdAt: isoOf(row.created_at_ms),
  };
}

/** The body rules beyond the contract's: USD precision and the configured minimum. */
function checkAmount(config: ServiceConfig, amount: number): void {
  if (!hasUsdPrecision(amount)) {
    throw new ServiceError('VALIDATION_FAILED', `amount must have at most ${USD_DECIMALS} decimal places`);
  }
  const minimum = minimumWithdrawal(config);
  if (amount < minimum) {
    const { service, transfer, withdraw } = config.withdrawFees;
    throw new ServiceError(
      'VALIDATION_FAILED',
      `amount must be at least the minimum withdrawal ${minimum} (${config.withdrawBase} plus fees ${service} + ${transfer} + ${withdraw})`,
    );
  }
}

function findByKey(db: ServiceDb, userId: string, key: string): WithdrawalRow | null {
  const row = db
    .prepare('SELECT * FROM withdrawals WHERE user_id = ? AND idempotency_key = ?')
    .get(userId, key);
  return (row as WithdrawalRow | undefined) ?? null;
}

const sameRequest = (row: WithdrawalRow, wallet: CopyWalletRow, req: WithdrawRequest): boolean =>
  row.copy_wallet_id === wallet.id &&
  row.destination_address.toLowerCase() === req.destinationAddress.toLowerCase() &&
  row.amount === req.amount;

const newTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;

/** Debits the wallet and writes a settled withdrawal. Call inside the transaction that checked the balance. */
function settle(
  ctx: ServiceContext,
  wallet: CopyWalletRow,
  req: WithdrawRequest,
  key: string | null,
): WithdrawalRow {
  const nowMs = ctx.config.now().getTime();
  const { service, transfer, withdraw } = ctx.config.withdrawFees;
  const withdrawAmount = roundUsd(req.amount - service - transfer);
  const row: WithdrawalRow = {
    id: randomUUID(),
    user_id: wallet.user_id,
    copy_wallet_id: wallet.id,
    embedded_wallet: wallet.embedded_wallet ?? req.sourceAddress,
    destination_address: req.destinationAddress,
    amount: req.amount,
    fee_amount: service,
    transfer_fee: transfer,
    withdraw_fee: withdraw,
    withdraw_amount: withdrawAmount,
    receive_amount: roundUsd(withdrawAmount - withdraw),
    // The sandbox settles at once: the fee charge and the transfer happen now.
    status: 'SUCCESSFUL',
    tx_hash: newTxHash(),
    charge_fee_tx_hash: newTxHash(),
    charge_fee_time_ms: nowMs,
    withdraw_time_ms: nowMs,
    idempotency_key: key,
    created_at_ms: nowMs,
  };
  adjustBalance(ctx.db, wallet.id, -req.amount);
  ctx.db
    .prepare(
      `INSERT INTO withdrawals (${Object.keys(row).join(', ')})
       VALUES (${Object.keys(row)
         .map((k) => `@${k}`)
         .join(', ')})`,
    )
    .run(row);
  return row;
}

/**
 * `POST /embedded-wallets/<venue>/withdraw`. The key lookup, the balance check and the debit run
 * in one synchronous transaction, so concurrent requests can neither overdraw nor pay a key twice.
 */
export function withdraw(
  ctx: ServiceContext,
  user: UserRecord,
  body: unknown,
  idempotencyKey: string | null,
): WithdrawOutcome {
  const req = validate(withdrawRequestSchema, body);
  checkAmount(ctx.config, req.amount);
  const wallet = findEmbeddedWallet(ctx.db, user.id, exchangeOf(ctx.config.venue), req.sourceAddress);
  if (!wallet) throw new ServiceError('NOT_FOUND', 'sourceAddress is not one of your embedded wallets');
  return ctx.db.transaction((): WithdrawOutcome => {
    const earlier = idempotencyKey === null ? null : findByKey(ctx.db, user.id, idempotencyKey);
    if (earlier) {
      if (!sameRequest(earlier, wallet, req)) {
        throw new ServiceError(
          'CONFLICT',
          `Idempotency-Key "${idempotencyKey}" was already used for a different withdrawal; use a new key`,
        );
      }
      return { record: toWithdrawal(earlier, ctx.config.venue), replayed: true };
    }
    const available = availableBalance(ctx.db, wallet.id);
    if (req.amount > available) {
      throw new ServiceError(
        'INSUFFICIENT_BALANCE',
        `amount ${req.amount} exceeds the available balance ${available} of the embedded wallet`,
      );
    }
    return {
      record: toWithdrawal(settle(ctx, wallet, req, idempotencyKey), ctx.config.venue),
      replayed: false,
    };
  })();
}
