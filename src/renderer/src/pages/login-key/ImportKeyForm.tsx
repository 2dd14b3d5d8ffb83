import type { FormEvent, ReactElement } from 'react';
import { useId, useState } from 'react';
import { selectWalletPending, useWallet } from '@renderer/stores/wallet';
import { checkPrivateKey, KEY_DIGITS } from './private-key';

/**
 * Imports a private key. The key lives in this input only until submit: the field is cleared on
 * every submit, whatever the outcome, so a key never lingers in the page.
 */
export function ImportKeyForm(): ReactElement {
  const [value, setValue] = useState('');
  const [submitError, setSubmitError] = useState<string | null>(null);
  const pending = useWallet(selectWalletPending);
  const importKey = useWallet((s) => s.importKey);
  const inputId = useId();
  const hintId = useId();

  const check = checkPrivateKey(value);
  const error = submitError ?? check.problem;

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const submitted = checkPrivateKey(value);
    const key = value.trim();
    setValue('');
    if (!submitted.valid) {
      setSubmitError(
        submitted.problem ??
          `A private key is ${KEY_DIGITS} hex digits; that had ${submitted.digits}. Nothing was sent.`,
      );
      return;
    }
    setSubmitError(null);
    void importKey(key);
  };

  return (
    <form className="import-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="field-label">
        Private key
      </label>
      <div className="field-row">
        <input
          id={inputId}
          type="password"
          className={`input mono${error ? ' is-invalid' : ''}`}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setSubmitError(null);
          }}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={hintId}
          data-testid="wallet-import-input"
        />
        <button
          type="submit"
          className="button"
          disabled={value.trim() === '' || pending !== null}
          data-testid="wallet-import-submit"
        >
          {pending === 'import' ? 'Importing…' : 'Import key'}
        </button>
      </div>
      <p id={hintId} className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
        {error ??
          (value.trim() === ''
            ? `${KEY_DIGITS} hex digits, with or without 0x. The key goes straight to the keychain.`
            : `${check.digits} of ${KEY_DIGITS} hex digits.`)}
      </p>
    </form>
  );
}
