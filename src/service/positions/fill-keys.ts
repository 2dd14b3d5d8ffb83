// The one dedupe key of a venue fill, whichever way it arrives: a page of the venue feed, an
// imported file, or a stored fill re-keyed by a migration. Same fill, same key, so a fill the feed
// stored is a duplicate when a file brings it again, and the other way round
// (docs/importing.md, "What happens to the fills"; docs/venue-feed.md, "Backfill").
import type Database from 'better-sqlite3';

/** What the key is made of: the fields every source of fills has, normalised. */
export interface KeyedFill {
  /** Checksummed address. */
  account: string;
  coin: string;
  timeMs: number;
  isBuy: boolean;
  price: number;
  /** Canonical decimal text (positions/units.ts). */
  sizeTokens: string;
  txHash: string | null;
  /** The venue's trade id (a whole number, as a number or as text), or null. */
  tid: number | string | null;
}

const sideOf = (isBuy: boolean): string => (isBuy ? 'B' : 'A');

/** A trade id as text without leading zeros ("0101" and 101 are one trade). */
function tidText(tid: number | string): string {
  const text = String(tid).trim();
  return /^\d+$/.test(text) ? BigInt(text).toString() : text;
}

/**
 * What tells a fill without a trade id from the others. The venue's advice is hash + oid + time +
 * px + sz; the fills table never kept the oid, so stored fills could not be re-keyed with it, and
 * the side and coin stand in for it: fills of one transaction that agree on all of these are told
 * apart by their occurrence in the answer (`fillKeyer`). Without a hash (CSV) this is the row alone.
 */
export function fillIdentity(protocol: string, fill: KeyedFill): string {
  const hash = fill.txHash === null ? '-' : fill.txHash.toLowerCase();
  const where = `${protocol}:${fill.account}:${fill.coin}:${fill.timeMs}`;
  return `fill:${where}:${sideOf(fill.isBuy)}:${String(fill.price)}:${fill.sizeTokens}:${hash}`;
}

/**
 * The key of a fill. With a trade id: protocol, account, tid and side (both sides of a trade share
 * the tid, and in a self-trade both are the same account's). Without: its identity and its
 * occurrence (1, 2, …) among the fills of the same identity in one answer or file.
 */
export function fillKey(protocol: string, fill: KeyedFill, occurrence = 1): string {
  if (fill.tid !== null) return `tid:${protocol}:${fill.account}:${tidText(fill.tid)}:${sideOf(fill.isBuy)}`;
  return `${fillIdentity(protocol, fill)}#${occurrence}`;
}

/**
 * Keys the fills of one answer (a page, a WebSocket message) or one file, in order: identical
 * fills without a trade id are numbered by occurrence, so two real fills stay two, and an answer
 * that repeats them (the next page, the same file again) gives the same keys.
 */
export function fillKeyer(protocol: string): (fill: KeyedFill) => string {
  const seen = new Map<string, number>();
  return (fill) => {
    if (fill.tid !== null) return fillKey(protocol, fill);
    const identity = fillIdentity(protocol, fill);
    const occurrence = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, occurrence);
    return `${identity}#${occurrence}`;
  };
}

/** A stored fill without a trade id, as `rekeyStoredFills` reads it. */
interface StoredKeyRow {
  key: string;
  protocol: string;
  account: string;
  coin: string;
  time_ms: number;
  is_buy: number;
  price: number;
  size_tokens: string;
  tx_hash: string | null;
}

/**
 * Gives every stored fill the key `fillKey` gives it today (the migration that unified the keys):
 * fills without a trade id are numbered by occurrence in the order they were stored. Positions and
 * orders keep their ids until their series is next rebuilt. Old and new keys never collide (a new
 * tid key has the side, a new identity key ends in #n); a fill whose new key another fill already
 * has (the same fill stored twice under two old keys) keeps its old key.
 */
export function rekeyStoredFills(db: Database.Database): void {
  // Fills with a trade id, in one statement: the column holds it as a whole number.
  db.prepare(
    `UPDATE OR IGNORE fills SET key = 'tid:' || protocol || ':' || account || ':' || tid || ':' ||
       CASE is_buy WHEN 1 THEN 'B' ELSE 'A' END
     WHERE tid IS NOT NULL`,
  ).run();
  const rows = db
    .prepare(
      `SELECT key, protocol, account, coin, time_ms, is_buy, price, size_tokens, tx_hash FROM fills
       WHERE tid IS NULL ORDER BY seq`,
    )
    .all() as StoredKeyRow[];
  const keyers = new Map<string, (fill: KeyedFill) => string>();
  const rename = db.prepare('UPDATE OR IGNORE fills SET key = ? WHERE key = ?');
  for (const row of rows) {
    let keyOf = keyers.get(row.protocol);
    if (!keyOf) keyers.set(row.protocol, (keyOf = fillKeyer(row.protocol)));
    // A trade id the column could not hold as a number is still in the old key (tid:P:account:tid).
    const tid = /^tid:[^:]+:[^:]+:(.+)$/.exec(row.key)?.[1] ?? null;
    const key = keyOf({
      account: row.account,
      coin: row.coin,
      timeMs: row.time_ms,
      isBuy: row.is_buy === 1,
      price: row.price,
      sizeTokens: row.size_tokens,
      txHash: row.tx_hash,
      tid,
    });
    if (key !== row.key) rename.run(key, row.key);
  }
}
