// Identifiers the copy engine writes: derived from what caused them (the source order, the copy
// trade, the position), so that replaying the same inputs writes the same rows.
import { createHash, hash } from 'node:crypto';

// One digest per fill: a fill needs an order id, a log id and a transaction hash (and at its open
// a position id), all derived from its cause's label. One SHA-512 (128 hex digits; on 64-bit
// machines cheaper than one SHA-256 of the same text) is sliced for all of them, instead of a
// SHA-256 per id: the ids stay derived from what caused them, the same inputs giving the same rows.
// The one-shot `crypto.hash` (Node ≥ 20.12) costs a quarter of a createHash object per digest.
const hexDigest: (algorithm: 'sha256' | 'sha512', text: string) => string =
  typeof hash === 'function'
    ? (algorithm, text) => hash(algorithm, text, 'hex')
    : (algorithm, text) => createHash(algorithm).update(text).digest('hex');

const digest = (label: string): string => hexDigest('sha256', `copy-engine:${label}`);

/** The 48-bit millisecond `atMs` as 12 hex digits. */
const timeHex = (atMs: number): string =>
  Math.min(Math.max(0, Math.trunc(atMs)), 2 ** 48 - 1)
    .toString(16)
    .padStart(12, '0');

/** A UUIDv7 shape from the time's 12 hex digits and 18 hex digits of a digest from `at`. */
const uuidOf = (t: string, h: string, at: number): string =>
  `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(at, at + 3)}-a${h.slice(at + 3, at + 6)}-${h.slice(at + 6, at + 18)}`;

/**
 * A UUIDv7-shaped id: the 48-bit millisecond `atMs`, then bits derived from `label`. Ids of rows
 * written in time order sort in time order, so their primary-key index grows at its right edge
 * instead of at random pages.
 */
export function engineId(label: string, atMs: number): string {
  return uuidOf(timeHex(atMs), digest(label), 0);
}

/** A 32-byte hex transaction hash derived from `label` (the sandbox's venue has no chain). */
export function engineTxHash(label: string): string {
  return `0x${digest(`tx:${label}`)}`;
}

/** The ids of one fill: its copy order's id and transaction hash, its log's id, the position's id at an open. */
export interface FillIds {
  orderId: string;
  txHash: string;
  logId: string;
  positionId: string;
}

/** The ids of the fill caused by `label` (unique per fill) at `atMs`, from one digest. */
export function fillIds(label: string, atMs: number): FillIds {
  const h = hexDigest('sha512', `copy-engine:fill:${label}`);
  const t = timeHex(atMs);
  return {
    txHash: `0x${h.slice(0, 64)}`,
    orderId: uuidOf(t, h, 64),
    logId: uuidOf(t, h, 82),
    positionId: uuidOf(t, h, 100),
  };
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
