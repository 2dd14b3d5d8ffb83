import type { ActivityLog } from '../../shared/api/activity-logs';
import type { CopyPosition } from '../../shared/api/copy-positions';

/**
 * A trader's order as the copy engine sees it, whatever its source (the live simulator, an
 * import, the sandbox API). Sizes are USD notional, as in the Order resource.
 */
export interface SourceOrder {
  /** Unique across sources; the engine processes each id exactly once. */
  id: string;
  account: string;
  protocol: string;
  indexToken: string;
  /** The source position's side. */
  isLong: boolean;
  type: 'OPEN' | 'INCREASE' | 'DECREASE' | 'CLOSE' | 'MARGIN_TRANSFERRED';
  /** Magnitude of the size change, USD. */
  sizeDeltaUsd: number;
  /** Magnitude of the collateral change, USD. */
  collateralDeltaUsd: number;
  /** The source position's size and collateral BEFORE this order (0 for an OPEN), USD. */
  sizeBeforeUsd: number;
  collateralBeforeUsd: number;
  /** Fill price of the source order. */
  price: number;
  blockTimeMs: number;
  txHash: string;
  /** The source position was liquidated by this order. */
  isLiquidate: boolean;
}

/** A mark price tick. */
export interface PriceTick {
  indexToken: string;
  price: number;
  timeMs: number;
}

/** What the engine tells the user's terminal (the authenticated event stream carries these). */
export type CopyEvent =
  | {
      kind: 'copyPositionOpened' | 'copyPositionUpdated' | 'copyPositionClosed';
      userId: string;
      copyPosition: CopyPosition;
    }
  | { kind: 'activityLog'; userId: string; activityLog: ActivityLog }
  | { kind: 'withdrawalSettled'; userId: string; withdrawal: Record<string, unknown> };
