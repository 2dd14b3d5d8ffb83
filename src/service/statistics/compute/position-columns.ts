/**
 * Positions as columns of typed arrays: what the statistics engine reads. Ten million positions
 * fit in about a gigabyte this way, where objects would not fit at all. Rows are sorted by
 * (protocol, account) so that each trader's positions are one contiguous run.
 */
export interface PositionColumns {
  count: number;
  /** Index into `accounts`. */
  account: Uint32Array;
  /** Index into `protocols`. */
  protocol: Uint16Array;
  /** Index into `tokens` (index-token addresses) and `pairs`. */
  token: Uint16Array;
  isLong: Uint8Array;
  isLiquidate: Uint8Array;
  size: Float64Array;
  collateral: Float64Array;
  averagePrice: Float64Array;
  realisedPnl: Float64Array;
  fee: Float64Array;
  funding: Float64Array;
  openTimeMs: Float64Array;
  /** NaN while the position is open. */
  closeTimeMs: Float64Array;
  orderCount: Uint16Array;
  accounts: string[];
  protocols: string[];
  tokens: string[];
  /** The pair of each token, by token index. */
  pairs: string[];
}

/** Empty columns with room for `count` positions. */
export function allocateColumns(
  count: number,
  dictionaries: Pick<PositionColumns, 'accounts' | 'protocols' | 'tokens' | 'pairs'>,
): PositionColumns {
  return {
    count,
    account: new Uint32Array(count),
    protocol: new Uint16Array(count),
    token: new Uint16Array(count),
    isLong: new Uint8Array(count),
    isLiquidate: new Uint8Array(count),
    size: new Float64Array(count),
    collateral: new Float64Array(count),
    averagePrice: new Float64Array(count),
    realisedPnl: new Float64Array(count),
    fee: new Float64Array(count),
    funding: new Float64Array(count),
    openTimeMs: new Float64Array(count),
    closeTimeMs: new Float64Array(count),
    orderCount: new Uint16Array(count),
    ...dictionaries,
  };
}
