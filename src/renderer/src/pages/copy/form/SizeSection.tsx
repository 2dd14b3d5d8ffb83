import type { ReactElement } from 'react';
import type { CopyTradeSide } from '@shared/api/copy-trades';
import { Field } from '@renderer/components/Field';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { formatUsd } from '@renderer/format/number';
import type { WalletRecord } from '@renderer/pages/funds/wallet-view';
import { SIDE_LABELS } from '@renderer/pages/copy/copy-labels';
import { numberInput, Section, type CopyFormBinding } from './form-binding';

const SIDE_OPTIONS: readonly { value: CopyTradeSide; label: string }[] = [
  { value: 'BOTH', label: SIDE_LABELS.BOTH },
  { value: 'LONG', label: SIDE_LABELS.LONG },
  { value: 'SHORT', label: SIDE_LABELS.SHORT },
];

/** The copy wallet that pays, the margin and leverage of each copy, and which sides are copied. */
export function SizeSection({
  form,
  wallets,
}: {
  form: CopyFormBinding;
  wallets: readonly WalletRecord[] | null;
}): ReactElement {
  const wallet = wallets?.find((w) => w.id === form.values.copyWalletId) ?? null;
  return (
    <Section title="Size" hint="Margin and leverage of each copied position.">
      <Field
        label="Copy wallet"
        error={form.errorOf('copyWalletId')}
        hint={
          wallet
            ? `${formatUsd(wallet.availableBalance)} available of ${formatUsd(wallet.balance)}`
            : 'Pays the margin of the copies.'
        }
        className="span-2"
      >
        {(c) => (
          <select
            {...c}
            className={`input select${form.errorOf('copyWalletId') ? ' is-invalid' : ''}`}
            value={form.values.copyWalletId}
            onChange={(e) => {
              const chosen = wallets?.find((w) => w.id === e.target.value);
              form.set('copyWalletId', e.target.value);
              form.set('exchange', chosen?.exchange ?? '');
            }}
            onBlur={() => form.touch('copyWalletId')}
            data-testid="copy-form-wallet"
          >
            <option value="">{wallets === null ? 'Loading wallets…' : 'Choose a wallet'}</option>
            {(wallets ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} · {w.exchange} · {formatUsd(w.availableBalance)} available
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Margin per position"
        suffix="USD"
        error={form.errorOf('volume')}
        hint="More than 0. Scaled down by volume protection."
      >
        {numberInput(form, 'volume', '100', 'copy-form-volume')}
      </Field>
      <Field
        label="Leverage"
        suffix="×"
        error={form.errorOf('leverage')}
        hint="2 to 50; capped at the venue’s maximum for the token."
      >
        {numberInput(form, 'leverage', '10', 'copy-form-leverage')}
      </Field>
      <div className="span-2 form-row">
        <div>
          <span className="field-label">Sides to copy</span>
          <Segmented
            value={form.values.side}
            options={SIDE_OPTIONS}
            onChange={(s) => form.set('side', s)}
            label="Sides to copy"
            testId="copy-form-side"
          />
        </div>
        <Toggle
          checked={form.values.reverseCopy}
          onChange={(on) => form.set('reverseCopy', on)}
          label="Reverse copy"
          hint="Open the opposite side of what the trader opens."
          testId="copy-form-reverse"
        />
      </div>
    </Section>
  );
}
