// Reading the tolerant wallet records of `wallets:list`: the venue object sits under the venue's
// name (docs/api.md), which the renderer may not know, so it is found by its shape.

/** A wallet as `wallets:list` answers it: the base fields plus whatever the service added. */
export interface WalletRecord {
  id: string;
  name: string;
  exchange: string;
  balance: number;
  availableBalance: number;
  createdAt: string;
  [extra: string]: unknown;
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const venueObjects = (wallet: WalletRecord, venue?: string | null): Record<string, unknown>[] => {
  const preferred = venue ? [wallet[venue]] : [];
  return [...preferred, ...Object.values(wallet)].filter(
    (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
  );
};

/** The embedded wallet's on-chain address (what a withdrawal is sent from), or null. */
export function embeddedAddressOf(wallet: WalletRecord, venue?: string | null): string | null {
  for (const account of venueObjects(wallet, venue)) {
    const address = account.embeddedWallet;
    if (typeof address === 'string' && HEX_ADDRESS.test(address)) return address;
  }
  return null;
}

/** Whether the venue account is verified; null when the wallet has no venue account. */
export function verifiedOf(wallet: WalletRecord, venue?: string | null): boolean | null {
  for (const account of venueObjects(wallet, venue)) {
    if (typeof account.verified === 'boolean') return account.verified;
  }
  return null;
}

/** A number field the embedded list adds (`pnl24h`, `totalPnl`), or null when absent. */
export function numberField(wallet: WalletRecord, field: string): number | null {
  const value = wallet[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Margin held by open copy positions: balance − available. */
export const marginInUse = (wallet: WalletRecord): number =>
  Math.max(0, wallet.balance - wallet.availableBalance);
