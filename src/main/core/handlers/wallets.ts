import { randomUUID } from 'node:crypto';
import {
  venueAccountOf,
  type CopyWallet,
  type EmbeddedCopyWallet,
  type WithdrawRequest,
} from '../../../shared/api/copy-wallets';
import {
  WITHDRAWAL_SUBMITTING,
  type WithdrawalRecord,
  type WithdrawPreview,
} from '../../../shared/ipc/schemas/wallets';
import type { ServiceProfile, WithdrawFees } from '../../../shared/profile';
import { ServiceRequestError } from '../client/http';
import type { ServiceClient } from '../client/service-client';
import { CoreError } from '../errors';
import type { ProfileContext } from '../profiles/profile-manager';
import type { DomainDeps, Handlers } from './handlers';

type WalletChannel = 'wallets:list' | 'withdraw:preview' | 'withdraw:submit' | 'withdrawals:list';

/** Fees assumed for a deployment that publishes none and whose profile sets none (docs/api.md, Copy wallets and withdrawal). */
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
 * The fee breakdown of a withdrawal (docs/api.md, Copy wallets and withdrawal):
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

/**
 * Whether the service definitely refused a withdrawal, so nothing was paid: a 4xx answer other
 * than 401 (a session to renew), 408 and 429 (try again). A timeout, a broken link or a 5xx leave
 * it unknown: the record stays SUBMITTING and is settled later with the same key.
 */
export function isDefiniteRefusal(error: unknown): boolean {
  if (!(error instanceof ServiceRequestError) || error.status === null) return false;
  return error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
}

/** The write guard's OFFLINE for a service that could not be reached at all (nothing left). */
const wasNotSent = (error: unknown): boolean =>
  error instanceof CoreError && error.code === 'OFFLINE' && /nothing was changed/.test(error.message);

const sameRequest = (record: WithdrawalRecord, request: WithdrawRequest): boolean =>
  record.sourceAddress.toLowerCase() === request.sourceAddress.toLowerCase() &&
  record.data.destinationAddress.toLowerCase() === request.destinationAddress.toLowerCase() &&
  record.data.amount === request.amount;

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
  /**
   * Sends the withdrawal of record `key` with that Idempotency-Key (the client retries it with the
   * same key) and settles the record: the service's answer, FAILED on a definite refusal, else it
   * stays SUBMITTING.
   */
  /** The keys of the withdrawals this run is sending now. */
  const inFlight = new Set<string>();
  const send = async (
    context: ProfileContext,
    key: string,
    request: WithdrawRequest,
    onNotSent: () => void = () => undefined,
  ) => {
    inFlight.add(key);
    try {
      const withdrawal = await write(async () =>
        (await context.serviceClient()).withdraw(request, { idempotencyKey: key }),
      );
      reads.invalidate(['wallets:list', 'withdraw:preview']);
      return deps.withdrawals.complete(context.id, key, withdrawal, context.profile.venue);
    } catch (error) {
      if (isDefiniteRefusal(error)) deps.withdrawals.refuse(context.id, key, (error as Error).message);
      // The service could not be reached at all (the guard says nothing was changed): the record
      // goes back to what it was before this try rather than being sent later.
      else if (wasNotSent(error)) onNotSent();
      throw error;
    } finally {
      inFlight.delete(key);
    }
  };
  /**
   * Once per profile and run (again after a try that left some unsettled): the withdrawals still
   * SUBMITTING from an earlier run are sent again with their own key, so the service answers the
   * first record (or makes the one it never received): none is lost, none is paid twice.
   */
  const reconciled = new Set<string>();
  const reconcile = async (context: ProfileContext, userId: string): Promise<void> => {
    if (reconciled.has(context.id)) return;
    reconciled.add(context.id);
    let unsettled = false;
    for (const record of deps.withdrawals.submitting(context.id, userId)) {
      // Being sent by this run right now: its own call settles it.
      if (inFlight.has(record.id)) continue;
      const request = {
        sourceAddress: record.sourceAddress,
        destinationAddress: record.data.destinationAddress,
        amount: record.data.amount,
      };
      await send(context, record.id, request).catch((error: unknown) => {
        if (!isDefiniteRefusal(error)) unsettled = true;
      });
    }
    if (unsettled) reconciled.delete(context.id);
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

    // Always with an Idempotency-Key, the one the renderer made when the user confirmed: a retry
    // of the same withdrawal (after a timeout, or by the client) sends the same key and never pays
    // twice. The record is written before the request leaves (docs/security.md, Withdrawals).
    'withdraw:submit': async ({ idempotencyKey, ...request }) => {
      const context = profiles.active();
      const { session } = await context.session.status();
      const userId = session?.userId ?? '';
      const given = idempotencyKey ?? randomUUID();
      // The same withdrawal confirmed again while one is still SUBMITTING (its answer was lost, and
      // a reload took the form's key with it) is a retry of that one: it takes that key, so the
      // service answers the first instead of paying twice. Once settled, the same again is new.
      const key = deps.withdrawals.find(context.id, given)
        ? given
        : (deps.withdrawals.submitting(context.id, userId).find((r) => sameRequest(r, request))?.id ?? given);
      const earlier = deps.withdrawals.find(context.id, key);
      if (earlier && !sameRequest(earlier, request))
        throw new CoreError(
          'CONFLICT',
          'idempotencyKey was already used for another withdrawal; confirm this one again for a new key',
        );
      // Settled already (the service answered): the same record, nothing sent again.
      if (earlier && earlier.status !== WITHDRAWAL_SUBMITTING && earlier.problem === undefined)
        return earlier;
      deps.withdrawals.begin(context.id, userId, key, request, new Date());
      return send(context, key, request, () => {
        // A first try: no record. A try again after a refusal: refused as before. A try again
        // after a lost answer: still SUBMITTING (that first try may have arrived).
        if (earlier === null) deps.withdrawals.forget(context.id, key);
        else if (earlier.problem !== undefined) deps.withdrawals.refuse(context.id, key, earlier.problem);
      });
    },

    // The core's own record (the API lists no withdrawals): always there, also offline.
    'withdrawals:list': async () => {
      const context = profiles.active();
      const userId = await userIdOf();
      // In the background: the list answers at once, also offline; a settled record shows next time.
      if (deps.connectivity.isOnline()) void reconcile(context, userId).catch(() => undefined);
      return {
        data: deps.withdrawals.list(context.id, userId),
        freshness: {
          fetchedAt: new Date().toISOString(),
          fromCache: true,
          stale: !deps.connectivity.isOnline(),
        },
      };
    },
  };
}
