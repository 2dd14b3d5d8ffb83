import type { ReactElement, ReactNode } from 'react';
import { useId } from 'react';
import { useModalDialog } from '@renderer/hooks/use-modal-dialog';
import { CloseIcon } from './icons';

interface DrawerProps {
  title: ReactNode;
  /** A line under the title: what the drawer is about. */
  subtitle?: ReactNode;
  children: ReactNode;
  /** Buttons pinned to the bottom of the drawer. */
  footer?: ReactNode;
  onClose(): void;
  testId?: string;
  width?: number;
}

/**
 * A panel that slides in from the right over the page, for the details of one row. Modal (focus
 * stays inside, Escape closes) and mounted only while open.
 */
export function Drawer({
  title,
  subtitle,
  children,
  footer,
  onClose,
  testId,
  width = 560,
}: DrawerProps): ReactElement {
  const dialog = useModalDialog();
  const titleId = useId();

  return (
    <dialog
      ref={dialog}
      className="drawer"
      aria-labelledby={titleId}
      data-testid={testId}
      style={{ width: `min(${width}px, calc(100vw - 40px))` }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A click on the backdrop (the dialog element itself, outside its content) closes it.
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="drawer-content">
        <header className="drawer-header">
          <div className="drawer-heading">
            <h2 id={titleId} className="drawer-title">
              {title}
            </h2>
            {subtitle ? <div className="drawer-subtitle">{subtitle}</div> : null}
          </div>
          <button
            type="button"
            className="icon-button"
            onClick={onClose}
            aria-label="Close"
            data-testid="drawer-close"
          >
            <CloseIcon />
          </button>
        </header>
        <div className="drawer-body">{children}</div>
        {footer ? <footer className="drawer-footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
