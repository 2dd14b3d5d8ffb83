import type { ServiceDb } from '../store/database';
import { indexTokenAddress, protocolCatalogue } from './catalogue';

/** A row of the `/pairs/tokens` answer. */
export interface TokenListing {
  symbol: string;
  indexTokens: string[];
  isForex: boolean;
}

/** Writes the catalogue into the store; tokens already there are kept as they are. */
export function seedTokenCatalogue(db: ServiceDb): void {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO tokens (protocol, symbol, index_token, is_forex, max_leverage) VALUES (?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const [protocol, tokens] of Object.entries(protocolCatalogue)) {
      for (const t of tokens) {
        insert.run(
          protocol,
          t.symbol,
          indexTokenAddress(protocol, t.symbol),
          t.isForex ? 1 : 0,
          t.maxLeverage,
        );
      }
    }
  })();
}

/** Every listed token, grouped by protocol, protocols and symbols in alphabetical order. */
export function listTokensByProtocol(db: ServiceDb): Record<string, TokenListing[]> {
  const rows = db
    .prepare('SELECT protocol, symbol, index_token, is_forex FROM tokens ORDER BY protocol, symbol')
    .all() as { protocol: string; symbol: string; index_token: string; is_forex: number }[];
  const grouped: Record<string, TokenListing[]> = {};
  for (const row of rows) {
    (grouped[row.protocol] ??= []).push({
      symbol: row.symbol,
      indexTokens: [row.index_token],
      isForex: row.is_forex === 1,
    });
  }
  return grouped;
}

/** Every protocol the store lists tokens for: the catalogue's and any that an import added. */
export function storedProtocols(db: ServiceDb): Set<string> {
  return new Set(db.prepare('SELECT DISTINCT protocol FROM tokens').pluck().all() as string[]);
}

/**
 * The stored protocols for routes that check every request against them, re-read at most every
 * `maxAgeMs`: a protocol can appear while the service runs (the venue feed lists HYPERLIQUID's
 * tokens once it has read the venue's meta), and a route that kept the set it started with would
 * refuse it until a restart.
 */
export class LiveProtocols {
  private set = new Set<string>();
  private readAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: ServiceDb,
    private readonly maxAgeMs = 1_000,
  ) {}

  current(): ReadonlySet<string> {
    const now = Date.now();
    if (now - this.readAtMs > this.maxAgeMs) {
      this.set = storedProtocols(this.db);
      this.readAtMs = now;
    }
    return this.set;
  }
}
