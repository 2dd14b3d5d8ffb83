import type { ReactElement } from 'react';
import { useState } from 'react';
import { Field } from '@renderer/components/Field';
import { splitAddresses } from '@renderer/copy-trades/copy-trade-form';
import { Section, switchRow, type CopyFormBinding } from './form-binding';

/** The trader (or traders) to copy, on which protocol, and the copy trade's title. */
export function WhomToCopySection({
  form,
  protocols,
  initialAccounts,
}: {
  form: CopyFormBinding;
  /** The protocols to choose from. */
  protocols: readonly string[];
  /** The other traders when the form opened. */
  initialAccounts: readonly string[];
}): ReactElement {
  // The text as typed; the form keeps the addresses it holds.
  const [accountsText, setAccountsText] = useState(() => initialAccounts.join('\n'));
  return (
    <Section title="Whom to copy">
      <Field
        label="Title"
        hint="1 to 40 characters, for you to recognise it."
        error={form.errorOf('title')}
        className="span-2"
      >
        {(c) => (
          <input
            {...c}
            className={`input${form.errorOf('title') ? ' is-invalid' : ''}`}
            value={form.values.title}
            onChange={(e) => form.set('title', e.target.value)}
            onBlur={() => form.touch('title')}
            placeholder="e.g. BTC trend follower"
            maxLength={60}
            data-testid="copy-form-title"
          />
        )}
      </Field>
      <Field
        label="Trader address"
        error={form.errorOf('account')}
        hint="The account whose positions are copied."
      >
        {(c) => (
          <input
            {...c}
            className={`input mono${form.errorOf('account') ? ' is-invalid' : ''}`}
            value={form.values.account}
            onChange={(e) => form.set('account', e.target.value.trim())}
            onBlur={() => form.touch('account')}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            data-testid="copy-form-account"
          />
        )}
      </Field>
      <Field label="Protocol" error={form.errorOf('protocol')} hint="Where the trader’s positions are read.">
        {(c) => (
          <select
            {...c}
            className={`input select${form.errorOf('protocol') ? ' is-invalid' : ''}`}
            value={form.values.protocol}
            onChange={(e) => form.set('protocol', e.target.value)}
            onBlur={() => form.touch('protocol')}
            data-testid="copy-form-protocol"
          >
            <option value="">Choose a protocol</option>
            {protocols.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        )}
      </Field>
      {switchRow(
        form,
        'multipleCopy',
        'Copy several traders',
        'copy-form-multiple',
        'Also copy the accounts listed here, with the same settings.',
      )}
      {form.values.multipleCopy ? (
        <Field
          label="Other traders"
          hint="One address per line (or separated by commas)."
          error={form.errorOf('accounts')}
          className="span-2"
        >
          {(c) => (
            <textarea
              {...c}
              className={`input textarea mono${form.errorOf('accounts') ? ' is-invalid' : ''}`}
              rows={3}
              value={accountsText}
              onChange={(e) => {
                setAccountsText(e.target.value);
                form.set('accounts', splitAddresses(e.target.value));
              }}
              onBlur={() => form.touch('accounts')}
              placeholder={'0x…\n0x…'}
              spellCheck={false}
              data-testid="copy-form-accounts"
            />
          )}
        </Field>
      ) : null}
    </Section>
  );
}
