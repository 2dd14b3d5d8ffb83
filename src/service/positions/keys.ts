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

/** The position key: like an on-chain key, the same for every position of (account, token, side). */
export const positionKey = (series: SeriesKey, isLong: boolean): string =>
  `0x${sha(`key|${seriesText(withIndexToken(series))}|${isLong ? 'long' : 'short'}`)}`;

export function withIndexToken(series: SeriesKey): Required<SeriesKey> {
  return { ...series, indexToken: series.indexToken ?? indexTokenAddress(series.protocol, series.symbol) };
}
