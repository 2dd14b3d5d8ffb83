// Checks of the withdrawal form that need no service: the destination address and the amount as
// typed. The fees, the minimum and the available balance come from `withdraw:preview`.
import { isAddress } from 'viem';
import type { WithdrawPreview } from '@shared/ipc/schemas/wallets';
import { formatUsd } from '@renderer/format/number';

/** A destination the form accepts, or why it does not. */
export type DestinationCheck = { ok: true; address: string } | { ok: false; problem: string | null };

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * `0x` and 40 hex digits. Mixed case means an EIP-55 checksum, which must then be right: a
 * mistyped letter of a checksummed address is caught here rather than paid to. All lower or all
 * upper case carries no checksum. `null` problem: nothing typed yet.
 */
export function checkDestination(value: string, sourceAddress?: string | null): DestinationCheck {
  const address = value.trim();
  if (address === '') return { ok: false, problem: null };
  if (!address.startsWith('0x')) return { ok: false, problem: 'An address starts with 0x.' };
  if (!HEX_ADDRESS.test(address)) {
    const digits = address.slice(2).length;
    return /^[0-9a-fA-F]*$/.test(address.slice(2))
      ? { ok: false, problem: `An address has 40 hex digits after 0x; this has ${digits}.` }
      : { ok: false, problem: 'An address has only the digits 0-9 and the letters a-f after 0x.' };
  }
  const body = address.slice(2);
  const mixed = /[a-f]/.test(body) && /[A-F]/.test(body);
  if (mixed && !isAddress(address, { strict: true })) {
    return {
      ok: false,
      problem: 'The upper and lower case letters do not match the address checksum: check it for a typo.',
    };
  }
  if (sourceAddress && sourceAddress.toLowerCase() === address.toLowerCase()) {
    return { ok: false, problem: 'That is the wallet you withdraw from; enter where the money should go.' };
  }
  return { ok: true, address };
}

/** The amount typed, in USD: a number > 0 with at most 6 decimals (the stablecoin's precision). */
export type AmountCheck = { ok: true; amount: number } | { ok: false; problem: string | null };

export function checkAmount(value: string): AmountCheck {
  const t = value.trim().replace(/,/g, '');
  if (t === '') return { ok: false, problem: null };
  if (!/^\d*\.?\d*$/.test(t) || t === '.')
    return { ok: false, problem: 'Enter an amount in USD, e.g. 25.50.' };
  const decimals = t.includes('.') ? t.length - t.indexOf('.') - 1 : 0;
  if (decimals > 6) return { ok: false, problem: 'At most 6 decimals: the wallet settles in micro-dollars.' };
  const amount = Number(t);
  if (!(amount > 0)) return { ok: false, problem: 'The amount must be greater than 0.' };
  return { ok: true, amount };
}

/**
 * Why the previewed amount cannot be sent, in the order a user fixes it: the service's own
 * sentence when it gave one, else the minimum, else the available balance. Null when it can.
 */
export function previewProblem(preview: WithdrawPreview): string | null {
  if (preview.problem) return preview.problem;
  if (preview.amount < preview.minimum)
    return `The minimum withdrawal is ${formatUsd(preview.minimum)}: 5 USD plus the fees.`;
  if (preview.amount > preview.availableBalance)
    return `That is more than the available ${formatUsd(preview.availableBalance)}.`;
  return null;
}

/** The most the wallet can send: the available balance, rounded down to 6 decimals. */
export const maxWithdrawable = (availableBalance: number): number =>
  Math.max(0, Math.floor(availableBalance * 1e6) / 1e6);

/** The Idempotency-Key of the withdrawal the user confirmed, and which withdrawal it is for. */
export interface HeldWithdrawalKey {
  key: string;
  /** Wallet, destination and amount, as `withdrawalIdentity` writes them. */
  identity: string;
}

const withdrawalIdentity = (request: { sourceAddress: string; destinationAddress: string; amount: number }) =>
  `${request.sourceAddress.toLowerCase()}>${request.destinationAddress.toLowerCase()}:${request.amount}`;

/**
 * The key to send with a withdrawal the user confirms: the one held for the same wallet,
 * destination and amount (a retry after a timeout or an error: the service answers the first
 * record instead of paying twice), else a new one. The form drops the key once a withdrawal went
 * through, so the next one gets its own.
 */
export function withdrawalKeyFor(
  held: HeldWithdrawalKey | null,
  request: { sourceAddress: string; destinationAddress: string; amount: number },
  newKey: () => string = () => crypto.randomUUID(),
): HeldWithdrawalKey {
  const identity = withdrawalIdentity(request);
  return held?.identity === identity ? held : { key: newKey(), identity };
}
