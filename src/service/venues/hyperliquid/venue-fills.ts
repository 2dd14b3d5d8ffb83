// A page of the venue's fills, read strictly: one malformed fill refuses the whole page (nothing of
// it is stored, docs/venue-feed.md), and the reason names the fill and the field.
import { getAddress } from 'viem';
import {
  FieldError,
  coinField,
  decimalField,
  optionalDecimal,
  readFields,
  sideField,
  sizeField,
  timeField,
} from '../../market/importers/fields';
import { isLiquidationOf } from '../../market/importers/fills-json';
import type { BookFill } from '../../market/series-book';
import { fillKeyer } from '../../positions/fill-keys';

/** One fill of an account, checked and normalised, ready to store (its key: positions/fill-keys.ts). */
export type FeedFill = BookFill & { closedPnl: number; startPosition: string };

/** A page the feed refuses whole; the message names the fill and the broken rule. */
export class PageError extends Error {
  override name = 'PageError';
}

/** Position directions a perpetual fill may carry, and the side each one trades. */
const DIRECTION_SIDE: Record<string, boolean> = {
  'Open Long': true,
  'Close Short': true,
  'Short > Long': true,
  'Open Short': false,
  'Close Long': false,
  'Long > Short': false,
  // Liquidation fills of the account itself.
  'Liquidated Cross Long': false,
  'Liquidated Isolated Long': false,
  'Liquidated Cross Short': true,
  'Liquidated Isolated Short': true,
};
/** Spot fills carry these; they make no positions and are passed over, not refused. */
const SPOT_DIRECTIONS = new Set(['Buy', 'Sell']);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function readFill(raw: unknown, account: string): Omit<FeedFill, 'key'> | null {
  if (!isObject(raw)) throw new FieldError('fill', 'is not an object');
  if (typeof raw.dir === 'string' && SPOT_DIRECTIONS.has(raw.dir)) return null;
  const fill = readFields<Omit<FeedFill, 'key' | 'account'>>({
    coin: () => coinField('coin', raw.coin),
    timeMs: () => timeField('time', raw.time),
    isBuy: () => directedSide(raw),
    price: () => decimalField('px', raw.px, { positive: true }),
    sizeTokens: () => sizeField('sz', raw.sz),
    fee: () => decimalField('fee', raw.fee),
    closedPnl: () => optionalDecimal('closedPnl', raw.closedPnl, 0),
    isLiquidation: () => isLiquidationOf(raw, account) || /^Liquidated/.test(String(raw.dir)),
    txHash: () => hashField(raw.hash),
    tid: () => tidField(raw.tid),
    startPosition: () => signedDecimalText('startPosition', raw.startPosition),
  });
  oidField(raw.oid);
  return { ...fill, account };
}

/** The side, checked against the direction: a buy cannot open a short. */
function directedSide(raw: Raw): boolean {
  const side = sideField('side', raw.side);
  const dir = raw.dir;
  if (typeof dir !== 'string' || !(dir in DIRECTION_SIDE))
    throw new FieldError(
      'dir',
      `${JSON.stringify(dir)} is not a known direction (Open Long, Close Short, Long > Short, …)`,
    );
  if (DIRECTION_SIDE[dir] !== side)
    throw new FieldError('dir', `'${dir}' does not go with side ${String(raw.side)}`);
  return side;
}

function hashField(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw))
    throw new FieldError('hash', 'must be 0x and hex digits');
  return raw;
}

function tidField(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0)
    throw new FieldError('tid', `${JSON.stringify(raw)} is not a whole number ≥ 0`);
  return raw;
}

function oidField(raw: unknown): void {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0)
    throw new FieldError('oid', `${JSON.stringify(raw)} is not a whole number ≥ 0`);
}

function signedDecimalText(field: string, raw: unknown): string {
  decimalField(field, raw);
  return String(raw).trim();
}

/**
 * Reads one answer of `userFills`/`userFillsByTime` for `account` (any case; stored checksummed).
 * Returns the perpetual fills in execution order: by time, then trade id where both have one,
 * else as the venue listed them inside a millisecond (its execution order). Spot fills are left
 * out. @throws PageError for anything malformed, naming the fill ("fill #3: px: …").
 */
export function readFillsPage(answer: unknown, protocol: string, account: string): FeedFill[] {
  if (!Array.isArray(answer)) throw new PageError('the answer is not a JSON array of fills');
  const owner = getAddress(account.toLowerCase());
  // The same key as an import of the same fills: identical fills without a tid numbered in this answer.
  const keyOf = fillKeyer(protocol);
  const fills: FeedFill[] = [];
  answer.forEach((raw, index) => {
    try {
      const fill = readFill(raw, owner);
      if (fill) fills.push({ ...fill, key: keyOf(fill) });
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      throw new PageError(`fill #${index + 1}: ${error.message}`);
    }
  });
  return inExecutionOrder(fills);
}

/** Stable sort by time, then trade id where both fills have one. */
export function inExecutionOrder(fills: FeedFill[]): FeedFill[] {
  return fills
    .map((fill, index) => ({ fill, index }))
    .sort(
      (a, b) =>
        a.fill.timeMs - b.fill.timeMs ||
        (a.fill.tid !== null && b.fill.tid !== null ? a.fill.tid - b.fill.tid : 0) ||
        a.index - b.index,
    )
    .map(({ fill }) => fill);
}
