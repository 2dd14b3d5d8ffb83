// What names a series and the rows the position engine books for it: the ids of orders and positions
// (derived from the fill that books them, so a rebuild gives the same ids) and the one position key.
import { createHash } from 'node:crypto';
import { indexTokenAddress } from '../market/catalogue';

/** One account's positions in one token on one protocol. */
export interface SeriesKey {
  account: string;
  protocol: string;
  /** The token's symbol ("BTC"); the pair is `${symbol}/USD`. */
  symbol: string;
  /** The index token; defaults to `indexTokenAddress(protocol, symbol)`. */
  indexToken?: string;
}

export const sha = (text: string) => createHash('sha256').update(text).digest('hex');
export const seriesText = (s: Required<SeriesKey>) =>
  `${s.protocol}|${s.account.toLowerCase()}|${s.indexToken}`;

/** The id of the order that part `index` of fill `fillId` books. */
export const orderId = (series: SeriesKey, fillId: string, index: 0 | 1): string =>
  sha(`order|${seriesText(withIndexToken(series))}|${fillId}|${index}`).slice(0, 32);

/** The id of the position that part `index` of fill `fillId` opens. */
export const positionId = (series: SeriesKey, fillId: string, index: 0 | 1): string =>
  sha(`position|${seriesText(withIndexToken(series))}|${fillId}|${index}`).slice(0, 32);

/** Keys hashed lately: a series opens many positions (a bot thousands), each asking for its key. */
const recentKeys = new Map<string, string>();
const RECENT_KEYS = 4_096;

/** The position key: like an on-chain key, the same for every position of (account, token, side). */
export function positionKey(series: SeriesKey, isLong: boolean): string {
  const text = `key|${seriesText(withIndexToken(series))}|${isLong ? 'long' : 'short'}`;
  let key = recentKeys.get(text);
  if (key === undefined) {
    if (recentKeys.size >= RECENT_KEYS) recentKeys.clear();
    key = `0x${sha(text)}`;
    recentKeys.set(text, key);
  }
  return key;
}

export function withIndexToken(series: SeriesKey): Required<SeriesKey> {
  return { ...series, indexToken: series.indexToken ?? indexTokenAddress(series.protocol, series.symbol) };
}
