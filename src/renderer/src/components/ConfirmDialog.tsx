import type { ReactElement, ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';
import { useModalDialog } from '@renderer/hooks/use-modal-dialog';

interface ConfirmDialogProps {
  title: string;
  /** What will happen, in a sentence or two, and what cannot be undone. */
  children: ReactNode;
  confirmLabel: string;
  /** The button's text while the action runs ("Closing…"). */
  pendingLabel?: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  pending?: boolean;
  /** Runs the action; the caller unmounts the dialog when it is done. */
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}

/**
 * A modal question before an action that costs money or cannot be undone. Mounted only while
 * open; Escape and Cancel call `onCancel`, and focus starts on Cancel so Enter never confirms by
 * accident.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pendingLabel,
  cancelLabel = 'Cancel',
  tone = 'primary',
  pending = false,
  onConfirm,
  onCancel,
  testId,
}: ConfirmDialogProps): ReactElement {
  const dialog = useModalDialog();
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  // After showModal (which focuses the first control): Enter on Cancel confirms nothing.
  useEffect(() => {
    cancel.current?.focus();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid={testId}
      onCancel={(e) => {
        // Escape while the action runs would leave it running unseen.
        e.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <div className="dialog-content">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div id={bodyId} className="dialog-body">
          {children}
        </div>
        <div className="dialog-actions">
          <button ref={cancel} type="button" className="button" onClick={onCancel} disabled={pending}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`button ${tone === 'danger' ? 'button-danger' : 'button-primary'}`}
            onClick={onConfirm}
            disabled={pending}
            data-testid={testId ? `${testId}-confirm` : undefined}
          >
            {pending ? (pendingLabel ?? `${confirmLabel}…`) : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
