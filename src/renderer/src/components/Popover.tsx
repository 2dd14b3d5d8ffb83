import type { ReactElement, ReactNode } from 'react';
import { useEffect, useId, useRef, useState } from 'react';

interface PopoverProps {
  /** The button's content. */
  label: ReactNode;
  /** The button's accessible name when its content is terse ("Columns, 12 shown"). */
  ariaLabel?: string;
  /** The panel's content; `close` hides it. */
  children: (close: () => void) => ReactNode;
  testId?: string;
  className?: string;
  align?: 'left' | 'right';
}

/**
 * A button that opens a small panel under it (column chooser, protocol picker, presets).
 * Escape and a click outside close it; focus goes back to the button.
 */
export function Popover({
  label,
  ariaLabel,
  children,
  testId,
  className,
  align = 'left',
}: PopoverProps): ReactElement {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const buttonId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  // By id, not by ref: `close` is handed to the panel while it renders.
  const close = (): void => {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  };

  return (
    <div className={`popover${className ? ` ${className}` : ''}`} ref={root}>
      <button
        ref={button}
        id={buttonId}
        type="button"
        className="button button-small popover-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
      >
        {label}
        <span className="popover-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div
          id={panelId}
          className={`popover-panel popover-${align}`}
          data-testid={testId ? `${testId}-panel` : undefined}
        >
          {children(close)}
        </div>
      ) : null}
    </div>
  );
}
