import type { FormEvent, ReactElement } from 'react';
import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '@renderer/components/ConfirmDialog';
import { Field } from '@renderer/components/Field';
import { formatUsd } from '@renderer/format/number';
import { useDebounced } from '@renderer/hooks/use-debounced';
import { previewKey, useWithdraw } from '@renderer/stores/withdraw';
import {
  checkAmount,
  checkDestination,
  maxWithdrawable,
  previewProblem,
  withdrawalKeyFor,
  type HeldWithdrawalKey,
} from './withdraw-form';
import type { WalletRecord } from './wallet-view';

interface WithdrawFormProps {
  wallet: WalletRecord;
  /** The embedded wallet's address: where the money leaves from. */
  sourceAddress: string;
  /** The service does not answer: nothing can be sent. */
  offline?: boolean;
}

/** Withdraws from the embedded wallet: destination, amount, the fee breakdown, a confirmation. */
export function WithdrawForm({ wallet, sourceAddress, offline = false }: WithdrawFormProps): ReactElement {
  const [destination, setDestination] = useState('');
  const [amountText, setAmountText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [destTouched, setDestTouched] = useState(false);
  // One Idempotency-Key per confirmed withdrawal, kept for every retry of it (docs/security.md).
  const [heldKey, setHeldKey] = useState<HeldWithdrawalKey | null>(null);
  const preview = useWithdraw((s) => s.preview);
  const previewFor = useWithdraw((s) => s.previewFor);
  const previewError = useWithdraw((s) => s.previewError);
  const previewing = useWithdraw((s) => s.previewing);
  const loadPreview = useWithdraw((s) => s.loadPreview);
  const clearPreview = useWithdraw((s) => s.clearPreview);
  const submitting = useWithdraw((s) => s.submitting);
  const submit = useWithdraw((s) => s.submit);
  const breakdownId = useId();

  const dest = checkDestination(destination, sourceAddress);
  const amount = checkAmount(amountText);
  const settledAmount = useDebounced(amount.ok ? amount.amount : null, 300);

  // The fee breakdown follows the amount once typing pauses; the core works it out with the service's fees.
  useEffect(() => {
    if (settledAmount === null) {
      clearPreview();
      return;
    }
    void loadPreview({ sourceAddress, amount: settledAmount });
  }, [settledAmount, sourceAddress, loadPreview, clearPreview]);

  const current =
    amount.ok && preview && previewFor === previewKey({ sourceAddress, amount: amount.amount })
      ? preview
      : null;
  const problem = current ? previewProblem(current) : null;
  const amountError = amount.ok ? (problem ?? previewError?.message ?? null) : amount.problem;
  const destError = destTouched || destination.length >= 42 ? (dest.ok ? null : dest.problem) : null;
  const ready = !offline && dest.ok && amount.ok && current !== null && problem === null && !previewing;
  const max = maxWithdrawable(current?.availableBalance ?? wallet.availableBalance);

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setDestTouched(true);
    if (!ready) return;
    const request = { sourceAddress, destinationAddress: dest.address, amount: amount.amount };
    setHeldKey((held) => withdrawalKeyFor(held, request));
    setConfirming(true);
  };

  const send = async (): Promise<void> => {
    if (!dest.ok || !amount.ok) return;
    const request = { sourceAddress, destinationAddress: dest.address, amount: amount.amount };
    const held = withdrawalKeyFor(heldKey, request);
    setHeldKey(held);
    const record = await submit({ ...request, idempotencyKey: held.key });
    setConfirming(false);
    if (record) {
      setHeldKey(null);
      setAmountText('');
      setDestination('');
      setDestTouched(false);
      clearPreview();
    }
  };

  return (
    <form className="withdraw-form" onSubmit={onSubmit} noValidate data-testid="withdraw-form">
      <Field
        label="Destination address"
        hint="0x and 40 hex digits. A mixed-case address is checked against its checksum."
        error={destError}
        testId="withdraw-destination-field"
      >
        {(c) => (
          <input
            {...c}
            className={`input mono${destError ? ' is-invalid' : ''}`}
            value={destination}
            onChange={(e) => setDestination(e.target.value)}
            onBlur={() => setDestTouched(true)}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            data-testid="withdraw-destination"
          />
        )}
      </Field>
      <Field
        label="Amount"
        error={amountError}
        hint={`Available ${formatUsd(wallet.availableBalance)}${current ? ` · minimum ${formatUsd(current.minimum)}` : ''}`}
        testId="withdraw-amount-field"
      >
        {(c) => (
          <div className="amount-row">
            <div className="field-with-suffix">
              <input
                {...c}
                className={`input num${amountError ? ' is-invalid' : ''}`}
                value={amountText}
                onChange={(e) => setAmountText(e.target.value)}
                placeholder="0.00"
                inputMode="decimal"
                autoComplete="off"
                aria-describedby={`${c['aria-describedby']} ${breakdownId}`}
                data-testid="withdraw-amount"
              />
              <span className="field-suffix">USD</span>
            </div>
            <button
              type="button"
              className="button"
              onClick={() => setAmountText(String(max))}
              disabled={max <= 0}
              title="Withdraw everything not held as margin"
            >
              Max
            </button>
          </div>
        )}
      </Field>

      <dl className="fee-breakdown" id={breakdownId} aria-live="polite" data-testid="withdraw-breakdown">
        <dt>Amount</dt>
        <dd className="num">{current ? formatUsd(current.amount) : '—'}</dd>
        <dt title="The service’s fee">Service fee</dt>
        <dd className="num">{current ? `−${formatUsd(current.feeAmount)}` : '—'}</dd>
        <dt title="Moving the money off the venue">Transfer fee</dt>
        <dd className="num">{current ? `−${formatUsd(current.transferFee)}` : '—'}</dd>
        <dt title="The venue’s withdrawal fee">Withdraw fee</dt>
        <dd className="num">{current ? `−${formatUsd(current.withdrawFee)}` : '—'}</dd>
        <dt className="fee-total">You receive</dt>
        <dd className="num fee-total" data-testid="withdraw-receive">
          {current ? formatUsd(current.receiveAmount) : previewing ? 'Working out…' : '—'}
        </dd>
      </dl>
      {current ? (
        <p className="field-hint">
          Fees from {current.feeSource === 'service' ? 'the service' : 'this profile’s settings'}. The
          wallet’s balance drops by the whole amount.
        </p>
      ) : null}

      <div className="panel-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={!ready || submitting}
          data-testid="withdraw-review"
        >
          Review withdrawal
        </button>
      </div>

      {confirming && current && dest.ok ? (
        <ConfirmDialog
          title={`Withdraw ${formatUsd(current.amount)}?`}
          confirmLabel="Withdraw"
          pendingLabel="Withdrawing…"
          tone="danger"
          pending={submitting}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
          testId="withdraw-confirm"
        >
          <p>
            {formatUsd(current.receiveAmount)} arrives at this address, after{' '}
            {formatUsd(current.amount - current.receiveAmount)} of fees:
          </p>
          <p className="dialog-address mono">{dest.address}</p>
          <dl className="facts facts-compact">
            <dt>From</dt>
            <dd className="with-copy">
              {wallet.name} <span className="mono muted">{sourceAddress.slice(0, 10)}…</span>
            </dd>
            <dt>Balance after</dt>
            <dd className="num">{formatUsd(wallet.balance - current.amount)}</dd>
          </dl>
          <p className="muted">A withdrawal cannot be undone. Check the address.</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
