import type { ReactElement, ReactNode } from 'react';
import { useId } from 'react';

interface ToggleProps {
  checked: boolean;
  onChange(checked: boolean): void;
  label: ReactNode;
  /** A line under the label: what turning it on does. */
  hint?: ReactNode;
  disabled?: boolean;
  testId?: string;
}

/** An on/off switch with its label, built on a checkbox so it keeps the keyboard and forms. */
export function Toggle({ checked, onChange, label, hint, disabled, testId }: ToggleProps): ReactElement {
  const id = useId();
  const hintId = useId();
  return (
    <div className={`toggle${disabled ? ' is-disabled' : ''}`}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="toggle-input"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        data-testid={testId}
      />
      <label htmlFor={id} className="toggle-label">
        <span className="toggle-track" aria-hidden="true">
          <span className="toggle-thumb" />
        </span>
        <span className="toggle-text">{label}</span>
      </label>
      {hint ? (
        <p id={hintId} className="toggle-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface SegmentedProps<V extends string> {
  value: V;
  options: readonly { value: V; label: string; title?: string }[];
  onChange(value: V): void;
  /** The group's name for screen readers. */
  label: string;
  testId?: string;
  disabled?: boolean;
}

/** A row of mutually exclusive buttons (Long / Short / Both), as a radio group. */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
  disabled,
}: SegmentedProps<V>): ReactElement {
  return (
    <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          className={`segmented-option${o.value === value ? ' is-selected' : ''}`}
          onClick={() => onChange(o.value)}
          title={o.title}
          disabled={disabled}
          data-testid={testId ? `${testId}-${o.value.toLowerCase()}` : undefined}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
