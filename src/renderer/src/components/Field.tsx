import type { ReactElement, ReactNode } from 'react';
import { useId } from 'react';

/** The ids a control inside a Field needs: its own, and what describes it. */
export interface FieldControl {
  id: string;
  'aria-describedby': string;
  'aria-invalid': true | undefined;
}

interface FieldProps {
  label: ReactNode;
  /** What the value means or its allowed range; shown when there is no error. */
  hint?: ReactNode;
  /** The rule the value breaks, shown in red instead of the hint. */
  error?: string | null;
  /** Text after the input: USD, ×, %. */
  suffix?: ReactNode;
  className?: string;
  testId?: string;
  children: (control: FieldControl) => ReactNode;
}

/** A labelled control with its hint or error underneath, wired for screen readers. */
export function Field({ label, hint, error, suffix, className, testId, children }: FieldProps): ReactElement {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div
      className={`field${error ? ' has-error' : ''}${className ? ` ${className}` : ''}`}
      data-testid={testId}
    >
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className={suffix ? 'field-with-suffix' : undefined}>
        {children({ id, 'aria-describedby': noteId, 'aria-invalid': error ? true : undefined })}
        {suffix ? <span className="field-suffix">{suffix}</span> : null}
      </div>
      {error ? (
        <p id={noteId} className="field-error" data-testid={testId ? `${testId}-error` : undefined}>
          {error}
        </p>
      ) : hint ? (
        <p id={noteId} className="field-hint">
          {hint}
        </p>
      ) : (
        <span id={noteId} hidden />
      )}
    </div>
  );
}
