import type { ReactElement } from 'react';
import { Field } from '@renderer/components/Field';
import { numberInput, Section, switchRow, type CopyFormBinding } from './form-binding';

/** Volume protection and the cap on how far it scales a copy up. */
export function SizingRulesSection({ form }: { form: CopyFormBinding }): ReactElement {
  return (
    <Section title="Sizing rules">
      {switchRow(
        form,
        'volumeProtection',
        'Volume protection',
        'copy-form-volume-protection',
        'Scale the margin down when the trader opens smaller than usual (their margin ÷ their average).',
      )}
      {form.values.volumeProtection ? (
        <Field
          label="Look-back orders"
          error={form.errorOf('lookBackOrders')}
          hint="Whole number ≥ 1; empty means 10."
        >
          {numberInput(form, 'lookBackOrders', '10', 'copy-form-look-back')}
        </Field>
      ) : null}
      <Field
        label="Max volume multiplier"
        suffix="×"
        error={form.errorOf('maxVolMultiplier')}
        hint="Increases stop at margin × this. Empty: no cap."
      >
        {numberInput(form, 'maxVolMultiplier', 'no cap', 'copy-form-max-vol')}
      </Field>
    </Section>
  );
}
