// Identifiers the copy engine writes: derived from what caused them (the source order, the copy
// trade, the position), so that replaying the same inputs writes the same rows.
import { createHash, hash } from 'node:crypto';

// A fill derives three to five ids; the one-shot `crypto.hash` (Node ≥ 20.12) costs a quarter of
// a createHash object per digest, the same bytes either way.
const sha256Hex: (text: string) => string =
  typeof hash === 'function'
    ? (text) => hash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text).digest('hex');

const digest = (label: string): string => sha256Hex(`copy-engine:${label}`);

/**
 * A UUIDv7-shaped id: the 48-bit millisecond `atMs`, then bits derived from `label`. Ids of rows
 * written in time order sort in time order, so their primary-key index grows at its right edge
 * instead of at random pages.
 */
export function engineId(label: string, atMs: number): string {
  const t = Math.min(Math.max(0, Math.trunc(atMs)), 2 ** 48 - 1)
    .toString(16)
    .padStart(12, '0');
  const h = digest(label);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(0, 3)}-a${h.slice(3, 6)}-${h.slice(6, 18)}`;
}

/** A 32-byte hex transaction hash derived from `label` (the sandbox's venue has no chain). */
export function engineTxHash(label: string): string {
  return `0x${digest(`tx:${label}`)}`;
}

/** An address as the engine compares it: 0x addresses in lower case, other chains' exactly. */
export const addressKey = (address: string): string =>
  address.startsWith('0x') ? address.toLowerCase() : address;

/**
 * The source position an order belongs to: `account|protocol|indexToken|LONG` (or `SHORT`).
 * Skipped sources and copy positions (`source_position_id`) are keyed by it.
 */
export function sourceKey(account: string, protocol: string, indexToken: string, isLong: boolean): string {
  return `${addressKey(account)}|${protocol}|${addressKey(indexToken)}|${isLong ? 'LONG' : 'SHORT'}`;
}
