// Words for the copy-trading enums, as a trader reads them (docs/semantics.md, Copy engine).
import type { ActivityType } from '@shared/api/activity-logs';
import type { CloseType } from '@shared/api/copy-positions';

/** Why a copy position closed. */
export const CLOSE_TYPE_LABELS: Record<CloseType, { label: string; title: string }> = {
  COPY_TRADE: { label: 'Trader closed', title: 'The trader closed the source position; the copy followed.' },
  MANUAL: { label: 'You closed', title: 'You closed it at market.' },
  FORCE_CLOSE: { label: 'Unlinked', title: 'You unlinked it: closed at the last mark without trading.' },
  TAKE_PROFIT: { label: 'Take profit', title: 'The take-profit level was reached.' },
  STOP_LOSS: { label: 'Stop loss', title: 'The stop-loss level was reached.' },
  LIQUIDATE: {
    label: 'Liquidated',
    title: 'The mark price crossed the liquidation price; the margin is lost.',
  },
  OVERWRITE: {
    label: 'Replaced',
    title: 'The trader opened the same position again; the old copy was closed first.',
  },
};

/** What a copy trade did. */
export const ACTIVITY_LABELS: Record<ActivityType, string> = {
  OPEN: 'Open',
  CLOSE: 'Close',
  INCREASE: 'Increase',
  DECREASE: 'Decrease',
  LIQUIDATE: 'Liquidated',
  STOP_LOSS: 'Stop loss',
  TAKE_PROFIT: 'Take profit',
};

/** The tag colour of an activity: growth in accent, exits by outcome. */
export function activityTone(type: ActivityType): string {
  switch (type) {
    case 'OPEN':
    case 'INCREASE':
      return 'tag-accent';
    case 'TAKE_PROFIT':
      return 'tag-good';
    case 'STOP_LOSS':
    case 'LIQUIDATE':
      return 'tag-bad';
    default:
      return '';
  }
}

/** The side a copy trade copies, in words. */
export const SIDE_LABELS = { BOTH: 'Long & short', LONG: 'Longs only', SHORT: 'Shorts only' } as const;
