import type { FormEvent, ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { TokensList } from '@shared/ipc/contract';
import { Drawer } from '@renderer/components/Drawer';
import { WarningIcon } from '@renderer/components/icons';
import { shortAddress } from '@renderer/format/address';
import { useCopyTrading } from '@renderer/stores/copy-trading';
import type { CopyForm } from '@renderer/stores/copy-view';
import type { WalletRecord } from '@renderer/pages/funds/wallet-view';
import { useBacktestPrefill } from '@renderer/pages/backtest/backtest-prefill';
import { useNavigation } from '@renderer/stores/navigation';
import {
  copyTradeFormIssues,
  copyTradeToForm,
  emptyCopyTradeForm,
  formToCreateBody,
  formToUpdateChanges,
  type CopyTradeField,
  type CopyTradeFormValues,
  type EditableCopyTrade,
} from '@renderer/copy-trades/copy-trade-form';
import { ExitsSection } from './form/ExitsSection';
import type { CopyFormBinding } from './form/form-binding';
import { SizeSection } from './form/SizeSection';
import { SizingRulesSection } from './form/SizingRulesSection';
import { SkipSection } from './form/SkipSection';
import { TokensSection } from './form/TokensSection';
import { WhomToCopySection } from './form/WhomToCopySection';

interface CopyTradeFormProps {
  form: CopyForm;
  /** The trade being edited (edit mode). */
  trade: EditableCopyTrade | null;
  wallets: readonly WalletRecord[] | null;
  tokens: TokensList | null;
  /** RUNNING copy trades now, and how many the session allows. */
  running: number;
  quota: number | null;
  onClose(): void;
}

/** The create / edit form of a copy trade, in a drawer: every option, every rule checked as typed. */
export function CopyTradeForm({
  form,
  trade,
  wallets,
  tokens,
  running,
  quota,
  onClose,
}: CopyTradeFormProps): ReactElement {
  const editing = form.mode === 'edit';
  const original = useMemo(
    () =>
      trade && editing
        ? copyTradeToForm(trade)
        : emptyCopyTradeForm({
            account: form.mode === 'create' ? (form.account ?? '') : '',
            protocol: form.mode === 'create' ? (form.protocol ?? '') : '',
            title: form.mode === 'create' && form.account ? `Copy ${shortAddress(form.account)}` : '',
            ...(form.mode === 'create' && form.values),
          }),
    [trade, editing, form],
  );
  const [entered, setEntered] = useState<CopyTradeFormValues>(original);
  // A single wallet is the obvious choice: it stands for an empty choice. Derived, not copied into
  // the state once: the wallets may arrive after the form opened (a fresh login opens it from a
  // trader page).
  const onlyWallet = !editing && wallets?.length === 1 ? wallets[0] : undefined;
  const values = useMemo(
    () =>
      onlyWallet && entered.copyWalletId === ''
        ? { ...entered, copyWalletId: onlyWallet.id, exchange: onlyWallet.exchange }
        : entered,
    [entered, onlyWallet],
  );
  const [touched, setTouched] = useState<ReadonlySet<CopyTradeField>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const create = useCopyTrading((s) => s.create);
  const update = useCopyTrading((s) => s.update);
  const creating = useCopyTrading((s) => s.creating);
  const saving = useCopyTrading((s) => (trade ? s.busy[trade.id] === 'save' : false));

  const issues = useMemo(() => copyTradeFormIssues(values), [values]);
  const issueCount = Object.keys(issues).length;
  const changes = useMemo(
    () => (editing ? formToUpdateChanges(original, values) : null),
    [editing, original, values],
  );
  const changed = changes ? Object.keys(changes).length : 0;
  const quotaFull = !editing && quota !== null && running >= quota;

  const set = <K extends CopyTradeField>(field: K, value: CopyTradeFormValues[K]): void => {
    setEntered((v) => ({ ...v, [field]: value }));
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  };
  const touch = (field: CopyTradeField): void =>
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  /** The rule a field breaks, once the user has been there (or tried to send). */
  const errorOf = (field: CopyTradeField): string | null => {
    if (!attempted && !touched.has(field)) return null;
    // The exchange follows the wallet: its problem is the wallet's.
    return issues[field] ?? (field === 'copyWalletId' ? (issues.exchange ?? null) : null);
  };
  const binding: CopyFormBinding = { values, set, touch, errorOf };

  const protocols = useMemo(() => {
    const list = (tokens?.groups ?? []).map((g) => g.protocol);
    // A prefilled or stored protocol stays selectable even when the token list lacks it.
    return values.protocol && !list.includes(values.protocol) ? [values.protocol, ...list] : list;
  }, [tokens, values.protocol]);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setAttempted(true);
    if (issueCount > 0 || quotaFull) return;
    if (editing && trade) {
      if (changed === 0 || !changes) return;
      if (await update(trade.id, changes)) onClose();
    } else if (await create(formToCreateBody(values))) {
      onClose();
    }
  };

  const pending = creating || saving;
  const backtest = (): void => {
    useBacktestPrefill.getState().set({ kind: 'copyForm', values });
    onClose();
    useNavigation.getState().go('backtest');
  };
  const footer = (
    <div className="form-footer">
      <p className="form-footer-status" role="status">
        {quotaFull ? (
          <span className="field-error">Quota reached: stop a copy trade first.</span>
        ) : attempted && issueCount > 0 ? (
          <span className="field-error" data-testid="copy-form-issue-count">
            {issueCount === 1 ? '1 field needs fixing' : `${issueCount} fields need fixing`}
          </span>
        ) : editing ? (
          <span className="muted">
            {changed === 0 ? 'No changes yet' : `${changed} change${changed === 1 ? '' : 's'}`}
          </span>
        ) : (
          <span className="muted">Starts running as soon as it is created.</span>
        )}
      </p>
      <button type="button" className="button" onClick={onClose} disabled={pending}>
        Cancel
      </button>
      <button
        type="button"
        className="button"
        onClick={backtest}
        disabled={pending || !values.account.trim() || !values.protocol}
        title="Opens the Backtest page with these settings: what they would have made over the trader’s stored orders"
        data-testid="copy-form-backtest"
      >
        Backtest these settings
      </button>
      <button
        type="submit"
        form="copy-trade-form"
        className="button button-primary"
        disabled={pending || quotaFull || (editing && changed === 0)}
        data-testid="copy-form-submit"
      >
        {editing ? (saving ? 'Saving…' : 'Save changes') : creating ? 'Creating…' : 'Create copy trade'}
      </button>
    </div>
  );

  return (
    <Drawer
      title={editing ? `Edit “${trade?.title ?? ''}”` : 'New copy trade'}
      subtitle={
        editing
          ? 'Changes apply to new positions; open ones keep their size, wallet and trader.'
          : 'Mirror a trader’s positions with your own margin, leverage and limits.'
      }
      onClose={() => {
        if (!pending) onClose();
      }}
      footer={footer}
      width={680}
      testId="copy-form"
    >
      <form id="copy-trade-form" className="copy-form" onSubmit={(e) => void submit(e)} noValidate>
        {quotaFull ? (
          <div className="inline-alert" role="alert" data-testid="copy-form-quota">
            <WarningIcon />
            <p>
              You run {running} of {quota} copy trades your plan allows, and a new copy trade starts running.
              Stop one (its open positions stay open) to create another.
            </p>
          </div>
        ) : null}

        <WhomToCopySection form={binding} protocols={protocols} initialAccounts={original.accounts} />

        <SizeSection form={binding} wallets={wallets} />

        <TokensSection form={binding} tokens={tokens} />

        <ExitsSection form={binding} />

        <SizingRulesSection form={binding} />

        <SkipSection form={binding} />
      </form>
    </Drawer>
  );
}
