import type { ReactElement } from 'react';
import type { AmountType } from '@shared/api/copy-trades';
import { Field } from '@renderer/components/Field';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { numberInput, Section, type CopyFormBinding } from './form-binding';

const UNIT_OPTIONS: readonly { value: AmountType; label: string }[] = [
  { value: 'USD', label: 'USD' },
  { value: 'PERCENT', label: '% of margin' },
];

/** The fields, words and test ids of one exit row; the two exits differ only in these. */
interface ExitSpec {
  enable: 'enableStopLoss' | 'enableTakeProfit';
  type: 'stopLossType' | 'takeProfitType';
  amount: 'stopLossAmount' | 'takeProfitAmount';
  label: string;
  unitLabel: string;
  amountLabel: string;
  testId: string;
  hint: (unit: AmountType) => string;
  placeholder: (unit: AmountType) => string;
}

const STOP_LOSS: ExitSpec = {
  enable: 'enableStopLoss',
  type: 'stopLossType',
  amount: 'stopLossAmount',
  label: 'Stop loss',
  unitLabel: 'Stop-loss unit',
  amountLabel: 'Loss to stop at',
  testId: 'copy-form-stop-loss',
  hint: (unit) => (unit === 'PERCENT' ? 'Up to 100% of the margin.' : 'Up to the margin per position.'),
  placeholder: (unit) => (unit === 'PERCENT' ? '50' : '20'),
};

const TAKE_PROFIT: ExitSpec = {
  enable: 'enableTakeProfit',
  type: 'takeProfitType',
  amount: 'takeProfitAmount',
  label: 'Take profit',
  unitLabel: 'Take-profit unit',
  amountLabel: 'Gain to take',
  testId: 'copy-form-take-profit',
  hint: () => 'More than 0.',
  placeholder: () => '40',
};

/** One exit (stop loss or take profit): its switch, then, when on, its unit and amount. */
function exitRow(form: CopyFormBinding, exit: ExitSpec): ReactElement {
  const unit = form.values[exit.type];
  return (
    <div className="exit-row span-2">
      <Toggle
        checked={form.values[exit.enable]}
        onChange={(on) => form.set(exit.enable, on)}
        label={exit.label}
        testId={exit.testId}
      />
      {form.values[exit.enable] ? (
        <>
          <Segmented
            value={unit}
            options={UNIT_OPTIONS}
            onChange={(u) => form.set(exit.type, u)}
            label={exit.unitLabel}
            testId={`${exit.testId}-type`}
          />
          <Field
            label={exit.amountLabel}
            suffix={unit === 'PERCENT' ? '%' : 'USD'}
            error={form.errorOf(exit.amount)}
            hint={exit.hint(unit)}
          >
            {numberInput(form, exit.amount, exit.placeholder(unit), `${exit.testId}-amount`)}
          </Field>
        </>
      ) : null}
    </div>
  );
}

/** Stop loss and take profit: when a copy closes by itself. */
export function ExitsSection({ form }: { form: CopyFormBinding }): ReactElement {
  return (
    <Section title="Exits" hint="Close a copy by itself when it has lost or made enough.">
      {exitRow(form, STOP_LOSS)}
      {exitRow(form, TAKE_PROFIT)}
    </Section>
  );
}
