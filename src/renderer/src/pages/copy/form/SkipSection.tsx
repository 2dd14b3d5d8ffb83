import type { ReactElement } from 'react';
import { Field } from '@renderer/components/Field';
import { Toggle } from '@renderer/components/Toggle';
import { numberInput, Section, type CopyFormBinding } from './form-binding';

/** The fields, words and test ids of one skip rule; the three rules differ only in these. */
interface SkipSpec {
  enable: 'skipLowLeverage' | 'skipLowCollateral' | 'skipLowSize';
  amount: 'lowLeverage' | 'lowCollateral' | 'lowSize';
  label: string;
  testId: string;
  amountLabel: string;
  suffix: string;
  hint: string;
  placeholder: string;
  amountTestId: string;
}

const SKIP_ROWS: readonly SkipSpec[] = [
  {
    enable: 'skipLowLeverage',
    amount: 'lowLeverage',
    label: 'Skip low leverage',
    testId: 'copy-form-skip-leverage',
    amountLabel: 'Below leverage',
    suffix: '×',
    hint: '1 to 150.',
    placeholder: '3',
    amountTestId: 'copy-form-low-leverage',
  },
  {
    enable: 'skipLowCollateral',
    amount: 'lowCollateral',
    label: 'Skip low collateral',
    testId: 'copy-form-skip-collateral',
    amountLabel: 'Below collateral',
    suffix: 'USD',
    hint: 'At least 1.',
    placeholder: '100',
    amountTestId: 'copy-form-low-collateral',
  },
  {
    enable: 'skipLowSize',
    amount: 'lowSize',
    label: 'Skip low size',
    testId: 'copy-form-skip-size',
    amountLabel: 'Below size',
    suffix: 'USD',
    hint: 'At least 1.',
    placeholder: '1000',
    amountTestId: 'copy-form-low-size',
  },
];

/** One skip rule: its switch, then, when on, the threshold below which a position is skipped. */
function skipRow(form: CopyFormBinding, skip: SkipSpec): ReactElement {
  return (
    <div className="skip-row span-2" key={skip.enable}>
      <Toggle
        checked={form.values[skip.enable]}
        onChange={(on) => form.set(skip.enable, on)}
        label={skip.label}
        testId={skip.testId}
      />
      {form.values[skip.enable] ? (
        <Field
          label={skip.amountLabel}
          suffix={skip.suffix}
          error={form.errorOf(skip.amount)}
          hint={skip.hint}
        >
          {numberInput(form, skip.amount, skip.placeholder, skip.amountTestId)}
        </Field>
      ) : null}
    </div>
  );
}

/** The rules that skip a trader's small positions: low leverage, collateral or size. */
export function SkipSection({ form }: { form: CopyFormBinding }): ReactElement {
  return (
    <Section
      title="Skip small positions"
      hint="Decided when the trader opens; a skipped position is never copied."
    >
      {SKIP_ROWS.map((skip) => skipRow(form, skip))}
    </Section>
  );
}
