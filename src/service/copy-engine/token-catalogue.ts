// The token catalogue as the engine needs it: the venue's maximum leverage per protocol and
// token, the pair, and the catalogue's spelling of each index token (marks are keyed by it).
import type { Statement } from 'better-sqlite3';
import type { ServiceDb } from '../store/database';
import { addressKey } from './ids';

/** A token of a protocol as the engine copies it. */
export interface TokenInfo {
  /** The catalogue's spelling, or the order's when the catalogue does not list the token. */
  indexToken: string;
  /** `<symbol>/USD`, as the market's positions name it. */
  pair: string;
  /** The venue's maximum leverage, or null when the catalogue does not list the token (no cap). */
  maxLeverage: number | null;
}

interface TokenRow {
  protocol: string;
  symbol: string;
  index_token: string;
  max_leverage: number;
}

/** The market's pair name for a symbol (as positions/ledger.ts and the simulator write it). */
export const pairOf = (symbol: string): string => `${symbol}/USD`;

/** The tokens table in memory; reloaded when a lookup misses and the table has grown. */
export class TokenCatalogue {
  private byProtocol = new Map<string, TokenInfo>();
  private spelling = new Map<string, string>();
  private loadedCount = -1;
  private readonly count: Statement;
  private readonly rows: Statement;

  constructor(db: ServiceDb) {
    this.count = db.prepare('SELECT COUNT(*) FROM tokens').pluck();
    this.rows = db.prepare('SELECT protocol, symbol, index_token, max_leverage FROM tokens');
  }

  /** The token `indexToken` of `protocol`. */
  of(protocol: string, indexToken: string): TokenInfo {
    const key = `${protocol}|${addressKey(indexToken)}`;
    let found = this.byProtocol.get(key);
    if (!found && this.reload()) found = this.byProtocol.get(key);
    return found ?? { indexToken, pair: pairOf(indexToken), maxLeverage: null };
  }

  /** The catalogue's spelling of an index token (any protocol), or the token as given. */
  canonical(indexToken: string): string {
    const key = addressKey(indexToken);
    let found = this.spelling.get(key);
    if (found === undefined && this.reload()) found = this.spelling.get(key);
    return found ?? indexToken;
  }

  /** Forgets the catalogue: the next miss reloads it. */
  invalidate(): void {
    this.loadedCount = -1;
  }

  /** Loads the table when its size changed since the last load; true when it did. */
  private reload(): boolean {
    const count = this.count.get() as number;
    if (count === this.loadedCount) return false;
    const rows = this.rows.all() as TokenRow[];
    this.byProtocol = new Map();
    this.spelling = new Map();
    for (const row of rows) {
      this.byProtocol.set(`${row.protocol}|${addressKey(row.index_token)}`, {
        indexToken: row.index_token,
        pair: pairOf(row.symbol),
        maxLeverage: row.max_leverage,
      });
      this.spelling.set(addressKey(row.index_token), row.index_token);
    }
    this.loadedCount = count;
    return true;
  }
}
