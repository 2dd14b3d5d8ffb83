import type { ReactElement } from 'react';
import type { CopyPosition } from '@shared/api/copy-positions';
import { ConfirmDialog } from '@renderer/components/ConfirmDialog';
import { formatPrice, formatUsd } from '@renderer/format/number';
import { useCopyTrading } from '@renderer/stores/copy-trading';

export type PositionAction = 'close' | 'unlink';

interface ClosePositionDialogProps {
  position: CopyPosition;
  action: PositionAction;
  onDone(closed: boolean): void;
}

/** The confirmation before a copy position is closed at market or unlinked from its trader. */
export function ClosePositionDialog({ position, action, onDone }: ClosePositionDialogProps): ReactElement {
  const closePosition = useCopyTrading((s) => s.closePosition);
  const unlinkPosition = useCopyTrading((s) => s.unlinkPosition);
  const busy = useCopyTrading((s) => s.busy[position.id]);
  const what = `${position.pair} ${position.isLong ? 'long' : 'short'}`;

  const confirm = async (): Promise<void> => {
    const result = action === 'close' ? await closePosition(position.id) : await unlinkPosition(position.id);
    onDone(result !== null);
  };

  return (
    <ConfirmDialog
      title={action === 'close' ? `Close the ${what} at market?` : `Unlink the ${what}?`}
      confirmLabel={action === 'close' ? 'Close position' : 'Unlink and close'}
      pendingLabel={action === 'close' ? 'Closing…' : 'Unlinking…'}
      tone="danger"
      pending={busy !== undefined}
      onConfirm={() => void confirm()}
      onCancel={() => onDone(false)}
      testId={action === 'close' ? 'close-position-dialog' : 'unlink-position-dialog'}
    >
      {action === 'close' ? (
        <p>
          The copy closes now at the market price, with the taker fee. Its margin of{' '}
          {formatUsd(position.initialVol)} and the PnL return to the copy wallet. The trader’s own position is
          not touched.
        </p>
      ) : (
        <p>
          The copy stops following the trader and closes at the last mark price without trading (“Unlinked”).
          Use it when the trader’s next orders should no longer reach it.
        </p>
      )}
      <dl className="facts facts-compact">
        <dt>Copy trade</dt>
        <dd>{position.copyTradeTitle}</dd>
        <dt>Entry</dt>
        <dd className="num">{formatPrice(position.entryPrice)}</dd>
        <dt>Size</dt>
        <dd className="num">{formatPrice(position.totalSizeDelta)} tokens</dd>
      </dl>
      <p className="muted">This cannot be undone.</p>
    </ConfirmDialog>
  );
}
