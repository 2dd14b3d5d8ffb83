import type { ReactElement, ReactNode } from 'react';
import type { FieldControl } from '@renderer/components/Field';
import { Toggle } from '@renderer/components/Toggle';
import type { CopyTradeField, CopyTradeFormValues } from '@renderer/copy-trades/copy-trade-form';

/**
 * What each section of the copy-trade form works with: the values as shown, setting and leaving a
 * field, and the rule a field breaks once the user has been there (or tried to send).
 */
export interface CopyFormBinding {
  values: CopyTradeFormValues;
  set: <K extends CopyTradeField>(field: K, value: CopyTradeFormValues[K]) => void;
  touch: (field: CopyTradeField) => void;
  errorOf: (field: CopyTradeField) => string | null;
}

/** A titled group of the form's fields, with an optional one-line hint. */
export function Section({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: string;
  children: ReactNode;
}): ReactElement {
  return (
    <fieldset className="form-section">
      <legend className="form-section-title">{title}</legend>
      {hint ? <p className="form-section-hint">{hint}</p> : null}
      <div className="form-section-body">{children}</div>
    </fieldset>
  );
}

/** An amount box bound to `field`, as `Field`'s render prop. */
export const numberInput =
  (form: CopyFormBinding, field: CopyTradeField, placeholder: string, testId: string) =>
  (control: FieldControl): ReactElement => (
    <input
      {...control}
      className={`input num${form.errorOf(field) ? ' is-invalid' : ''}`}
      inputMode="decimal"
      autoComplete="off"
      // "e.g.": a bare number in a right-aligned amount box reads as a value already entered.
      placeholder={`e.g. ${placeholder}`}
      value={form.values[field] as string}
      onChange={(e) => form.set(field, e.target.value as never)}
      onBlur={() => form.touch(field)}
      data-testid={testId}
    />
  );

/** A switch on a whole row of the form. */
export const switchRow = (
  form: CopyFormBinding,
  field: 'multipleCopy' | 'copyAll' | 'hasExclude' | 'volumeProtection',
  label: string,
  testId: string,
  hint?: string,
): ReactElement => (
  <div className="span-2">
    <Toggle
      checked={form.values[field]}
      onChange={(on) => form.set(field, on)}
      label={label}
      hint={hint}
      testId={testId}
    />
  </div>
);
