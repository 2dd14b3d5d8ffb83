// Filters of a copy trade, decided at the source OPEN (docs/semantics.md, Copy engine: Filters).
import type { CopyTrade } from '../../shared/api/copy-trades';
import type { SourceOrder } from './types';
import { addressKey } from './ids';

/** The settings the filters read; a FollowedTrade (live) and a backtest configuration both give them. */
export interface FilterSubject {
  trade: Pick<
    CopyTrade,
    | 'copyAll'
    | 'hasExclude'
    | 'side'
    | 'skipLowLeverage'
    | 'lowLeverage'
    | 'skipLowCollateral'
    | 'lowCollateral'
    | 'skipLowSize'
    | 'lowSize'
  >;
  /** `tokenAddresses` by addressKey. */
  tokens: ReadonlySet<string>;
  /** `excludingTokenAddresses` by addressKey. */
  excluded: ReadonlySet<string>;
}

/** What the filters read of a source OPEN. */
export type FilteredOrder = Pick<
  SourceOrder,
  'indexToken' | 'isLong' | 'sizeDeltaUsd' | 'collateralDeltaUsd'
>;

/** The source position's leverage at its OPEN: size / collateral (Infinity without collateral). */
export const sourceLeverage = (o: FilteredOrder): number =>
  o.collateralDeltaUsd > 0 ? o.sizeDeltaUsd / o.collateralDeltaUsd : Infinity;

/** Why the copy trade skips the source position this OPEN starts, or null when it copies it. */
export function skipReason({ trade, tokens, excluded }: FilterSubject, o: FilteredOrder): string | null {
  const token = addressKey(o.indexToken);
  if (!trade.copyAll && !tokens.has(token)) return `token ${o.indexToken} is not in tokenAddresses`;
  if (trade.copyAll && trade.hasExclude && excluded.has(token))
    return `token ${o.indexToken} is in excludingTokenAddresses`;
  if (trade.side === 'LONG' && !o.isLong) return 'side LONG copies long positions only';
  if (trade.side === 'SHORT' && o.isLong) return 'side SHORT copies short positions only';
  const leverage = sourceLeverage(o);
  if (trade.skipLowLeverage && trade.lowLeverage !== null && leverage < trade.lowLeverage)
    return `source leverage ${leverage} is below lowLeverage ${trade.lowLeverage}`;
  if (trade.skipLowCollateral && trade.lowCollateral !== null && o.collateralDeltaUsd < trade.lowCollateral)
    return `source collateral ${o.collateralDeltaUsd} USD is below lowCollateral ${trade.lowCollateral}`;
  if (trade.skipLowSize && trade.lowSize !== null && o.sizeDeltaUsd < trade.lowSize)
    return `source size ${o.sizeDeltaUsd} USD is below lowSize ${trade.lowSize}`;
  return null;
}
