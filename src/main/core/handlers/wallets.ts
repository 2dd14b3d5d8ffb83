import { randomUUID } from 'node:crypto';
import { venueAccountOf, type CopyWallet, type EmbeddedCopyWallet } from '../../../shared/api/copy-wallets';
import type { WithdrawPreview } from '../../../shared/ipc/schemas/wallets';
import type { ServiceProfile, WithdrawFees } from '../../../shared/profile';
import { ServiceRequestError } from '../client/http';
import type { ServiceClient } from '../client/service-client';
import { CoreError } from '../errors';
import type { DomainDeps, Handlers } from './handlers';

type WalletChannel = 'wallets:list' | 'withdraw:preview' | 'withdraw:submit' | 'withdrawals:list';

/** Fees assumed for a deployment that publishes none and whose profile sets none (decisions.md defaults). */
export const DEFAULT_WITHDRAW_FEES: WithdrawFees = {
  feeAmount: 1,
  transferFee: 1,
  withdrawFee: 1,
  minimum: 8,
};

/** Money the service computes is rounded to 6 decimals (docs/copy-trading-api.md). */
const USD_DECIMALS = 6;
const roundUsd = (value: number): number => Number(value.toFixed(USD_DECIMALS));

/**
 * The fee breakdown of a withdrawal (decisions.md, Copy wallets and withdrawal):
 * `withdrawAmount = amount − feeAmount − transferFee`, `receiveAmount = withdrawAmount − withdrawFee`,
 * and the first reason the service would refuse it, if any.
 */
export function previewWithdrawal(
  amount: number,
  fees: WithdrawFees,
  availableBalance: number | null,
  feeSource: WithdrawPreview['feeSource'],
): WithdrawPreview {
  const withdrawAmount = roundUsd(amount - fees.feeAmount - fees.transferFee);
  const base = roundUsd(fees.minimum - fees.feeAmount - fees.transferFee - fees.withdrawFee);
  const problem =
    Number(amount.toFixed(USD_DECIMALS)) !== amount
      ? `amount must have at most ${USD_DECIMALS} decimal places`
      : availableBalance === null
        ? 'sourceAddress is not one of your embedded wallets'
        : amount < fees.minimum
          ? `amount must be at least the minimum withdrawal ${fees.minimum} (${base} plus fees ${fees.feeAmount} + ${fees.transferFee} + ${fees.withdrawFee})`
          : amount > availableBalance
            ? `amount ${amount} exceeds the available balance ${availableBalance} of the embedded wallet`
            : null;
  return {
    amount,
    feeAmount: fees.feeAmount,
    transferFee: fees.transferFee,
    withdrawFee: fees.withdrawFee,
    withdrawAmount,
    receiveAmount: roundUsd(withdrawAmount - fees.withdrawFee),
    minimum: fees.minimum,
    availableBalance: availableBalance ?? 0,
    problem,
    feeSource,
  };
}

/** The service's fees, or the profile's (else the defaults) when the deployment has no fee endpoint (404). */
export async function feesOf(
  client: ServiceClient,
  profile: ServiceProfile,
): Promise<{ fees: WithdrawFees; source: WithdrawPreview['feeSource'] }> {
  try {
    return { fees: await client.withdrawFees(), source: 'service' };
  } catch (error) {
    if (!(error instanceof ServiceRequestError && error.status === 404)) throw error;
    return { fees: profile.withdrawFees ?? DEFAULT_WITHDRAW_FEES, source: 'profile' };
  }
}

/** The embedded wallet whose venue address is `address`. */
function embeddedWalletAt(
  wallets: readonly (CopyWallet | EmbeddedCopyWallet)[],
  address: string,
  venue: string,
): CopyWallet | undefined {
  return wallets.find(
    (w) => venueAccountOf(w, venue)?.embeddedWallet?.toLowerCase() === address.toLowerCase(),
  );
}

/** Copy wallets, the withdrawal's preview and submission, and the withdrawals made from here. */
export function createWalletHandlers(deps: DomainDeps): Pick<Handlers, WalletChannel> {
  const { reads, write, profiles } = deps;
  const fetchWallets = async () => {
    const client = await profiles.active().serviceClient();
    const [copyWallets, embedded] = await Promise.all([
      client.listCopyWallets(),
      client.listEmbeddedWallets(),
    ]);
    return { copyWallets, embedded };
  };
  const userIdOf = async (): Promise<string> => {
    const { session } = await profiles.active().session.status();
    if (!session)
      throw new CoreError(
        'NOT_LOGGED_IN',
        'You are not logged in: log in with your wallet to see withdrawals.',
      );
    return session.userId;
  };
  return {
    'wallets:list': (request) => reads.read('wallets:list', request, fetchWallets),

    // Network first: a fee or balance from the cache would mislead while the service answers.
    'withdraw:preview': async ({ sourceAddress, amount }) => {
      const context = profiles.active();
      const [wallets, fees] = await Promise.all([
        reads.readFresh('wallets:list', {}, fetchWallets),
        reads.readFresh('withdraw:preview', { fees: context.profile.venue }, async () =>
          feesOf(await context.serviceClient(), context.profile),
        ),
      ]);
      const wallet = embeddedWalletAt(wallets.data.embedded, sourceAddress, context.profile.venue);
      return previewWithdrawal(amount, fees.data.fees, wallet?.availableBalance ?? null, fees.data.source);
    },

    // Always with an Idempotency-Key: the client may then retry it, and a retry never pays twice.
    'withdraw:submit': async (request) => {
      const context = profiles.active();
      const key = randomUUID();
      const withdrawal = await write(async () =>
        (await context.serviceClient()).withdraw(request, { idempotencyKey: key }),
      );
      reads.invalidate(['wallets:list', 'withdraw:preview']);
      return deps.withdrawals.add(context.id, key, withdrawal, context.profile.venue);
    },

    // The core's own record (the API lists no withdrawals): always there, also offline.
    'withdrawals:list': async () => {
      const context = profiles.active();
      return {
        data: deps.withdrawals.list(context.id, await userIdOf()),
        freshness: {
          fetchedAt: new Date().toISOString(),
          fromCache: true,
          stale: !deps.connectivity.isOnline(),
        },
      };
    },
  };
}
