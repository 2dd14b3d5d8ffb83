import type { FormEvent, ReactElement, ReactNode } from 'react';
import { useMemo, useState } from 'react';
import type { AmountType, CopyTradeSide } from '@shared/api/copy-trades';
import type { TokensList } from '@shared/ipc/contract';
import { Drawer } from '@renderer/components/Drawer';
import { Field, type FieldControl } from '@renderer/components/Field';
import { WarningIcon } from '@renderer/components/icons';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { shortAddress } from '@renderer/format/address';
import { formatUsd } from '@renderer/format/number';
import { useCopyTrading } from '@renderer/stores/copy-trading';
import type { CopyForm } from '@renderer/stores/copy-view';
import type { WalletRecord } from '@renderer/pages/wallets/wallet-view';
import { useBacktestPrefill } from '@renderer/pages/backtest/backtest-prefill';
import { useNavigation } from '@renderer/stores/navigation';
import {
  copyTradeFormIssues,
  copyTradeToForm,
  emptyCopyTradeForm,
  formToCreateBody,
  formToUpdateChanges,
  splitAddresses,
  type CopyTradeField,
  type CopyTradeFormValues,
  type EditableCopyTrade,
} from '@renderer/copy-trades/copy-trade-form';
import { SIDE_LABELS } from './copy-labels';
import { TokenPicker } from './TokenPicker';

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

const SIDE_OPTIONS: readonly { value: CopyTradeSide; label: string }[] = [
  { value: 'BOTH', label: SIDE_LABELS.BOTH },
  { value: 'LONG', label: SIDE_LABELS.LONG },
  { value: 'SHORT', label: SIDE_LABELS.SHORT },
];
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

function Section({
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
  const [accountsText, setAccountsText] = useState(() => original.accounts.join('\n'));
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

  // What the token pickers offer: none without a protocol, `null` (loading) until the list comes.
  const protocolTokens = useMemo(() => {
    if (!values.protocol) return [];
    if (!tokens) return null;
    return tokens.groups.find((g) => g.protocol === values.protocol)?.tokens ?? [];
  }, [tokens, values.protocol]);
  const protocols = useMemo(() => {
    const list = (tokens?.groups ?? []).map((g) => g.protocol);
    // A prefilled or stored protocol stays selectable even when the token list lacks it.
    return values.protocol && !list.includes(values.protocol) ? [values.protocol, ...list] : list;
  }, [tokens, values.protocol]);
  const wallet = wallets?.find((w) => w.id === values.copyWalletId) ?? null;

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

  const numberInput =
    (field: CopyTradeField, placeholder: string, testId: string) =>
    (control: FieldControl): ReactElement => (
      <input
        {...control}
        className={`input num${errorOf(field) ? ' is-invalid' : ''}`}
        inputMode="decimal"
        autoComplete="off"
        // "e.g.": a bare number in a right-aligned amount box reads as a value already entered.
        placeholder={`e.g. ${placeholder}`}
        value={values[field] as string}
        onChange={(e) => set(field, e.target.value as never)}
        onBlur={() => touch(field)}
        data-testid={testId}
      />
    );

  /** A switch on a whole row of the form. */
  const switchRow = (
    field: 'multipleCopy' | 'copyAll' | 'hasExclude' | 'volumeProtection',
    label: string,
    testId: string,
    hint?: string,
  ): ReactElement => (
    <div className="span-2">
      <Toggle
        checked={values[field]}
        onChange={(on) => set(field, on)}
        label={label}
        hint={hint}
        testId={testId}
      />
    </div>
  );

  /** One exit (stop loss or take profit): its switch, then, when on, its unit and amount. */
  const exitRow = (exit: ExitSpec): ReactElement => {
    const unit = values[exit.type];
    return (
      <div className="exit-row span-2">
        <Toggle
          checked={values[exit.enable]}
          onChange={(on) => set(exit.enable, on)}
          label={exit.label}
          testId={exit.testId}
        />
        {values[exit.enable] ? (
          <>
            <Segmented
              value={unit}
              options={UNIT_OPTIONS}
              onChange={(u) => set(exit.type, u)}
              label={exit.unitLabel}
              testId={`${exit.testId}-type`}
            />
            <Field
              label={exit.amountLabel}
              suffix={unit === 'PERCENT' ? '%' : 'USD'}
              error={errorOf(exit.amount)}
              hint={exit.hint(unit)}
            >
              {numberInput(exit.amount, exit.placeholder(unit), `${exit.testId}-amount`)}
            </Field>
          </>
        ) : null}
      </div>
    );
  };

  /** One skip rule: its switch, then, when on, the threshold below which a position is skipped. */
  const skipRow = (skip: SkipSpec): ReactElement => (
    <div className="skip-row span-2" key={skip.enable}>
      <Toggle
        checked={values[skip.enable]}
        onChange={(on) => set(skip.enable, on)}
        label={skip.label}
        testId={skip.testId}
      />
      {values[skip.enable] ? (
        <Field label={skip.amountLabel} suffix={skip.suffix} error={errorOf(skip.amount)} hint={skip.hint}>
          {numberInput(skip.amount, skip.placeholder, skip.amountTestId)}
        </Field>
      ) : null}
    </div>
  );

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

        <Section title="Whom to copy">
          <Field
            label="Title"
            hint="1 to 40 characters, for you to recognise it."
            error={errorOf('title')}
            className="span-2"
          >
            {(c) => (
              <input
                {...c}
                className={`input${errorOf('title') ? ' is-invalid' : ''}`}
                value={values.title}
                onChange={(e) => set('title', e.target.value)}
                onBlur={() => touch('title')}
                placeholder="e.g. BTC trend follower"
                maxLength={60}
                data-testid="copy-form-title"
              />
            )}
          </Field>
          <Field
            label="Trader address"
            error={errorOf('account')}
            hint="The account whose positions are copied."
          >
            {(c) => (
              <input
                {...c}
                className={`input mono${errorOf('account') ? ' is-invalid' : ''}`}
                value={values.account}
                onChange={(e) => set('account', e.target.value.trim())}
                onBlur={() => touch('account')}
                placeholder="0x…"
                spellCheck={false}
                autoComplete="off"
                data-testid="copy-form-account"
              />
            )}
          </Field>
          <Field label="Protocol" error={errorOf('protocol')} hint="Where the trader’s positions are read.">
            {(c) => (
              <select
                {...c}
                className={`input select${errorOf('protocol') ? ' is-invalid' : ''}`}
                value={values.protocol}
                onChange={(e) => set('protocol', e.target.value)}
                onBlur={() => touch('protocol')}
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
            'multipleCopy',
            'Copy several traders',
            'copy-form-multiple',
            'Also copy the accounts listed here, with the same settings.',
          )}
          {values.multipleCopy ? (
            <Field
              label="Other traders"
              hint="One address per line (or separated by commas)."
              error={errorOf('accounts')}
              className="span-2"
            >
              {(c) => (
                <textarea
                  {...c}
                  className={`input textarea mono${errorOf('accounts') ? ' is-invalid' : ''}`}
                  rows={3}
                  value={accountsText}
                  onChange={(e) => {
                    setAccountsText(e.target.value);
                    set('accounts', splitAddresses(e.target.value));
                  }}
                  onBlur={() => touch('accounts')}
                  placeholder={'0x…\n0x…'}
                  spellCheck={false}
                  data-testid="copy-form-accounts"
                />
              )}
            </Field>
          ) : null}
        </Section>

        <Section title="Size" hint="Margin and leverage of each copied position.">
          <Field
            label="Copy wallet"
            error={errorOf('copyWalletId')}
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
                className={`input select${errorOf('copyWalletId') ? ' is-invalid' : ''}`}
                value={values.copyWalletId}
                onChange={(e) => {
                  const chosen = wallets?.find((w) => w.id === e.target.value);
                  set('copyWalletId', e.target.value);
                  set('exchange', chosen?.exchange ?? '');
                }}
                onBlur={() => touch('copyWalletId')}
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
            error={errorOf('volume')}
            hint="More than 0. Scaled down by volume protection."
          >
            {numberInput('volume', '100', 'copy-form-volume')}
          </Field>
          <Field
            label="Leverage"
            suffix="×"
            error={errorOf('leverage')}
            hint="2 to 50; capped at the venue’s maximum for the token."
          >
            {numberInput('leverage', '10', 'copy-form-leverage')}
          </Field>
          <div className="span-2 form-row">
            <div>
              <span className="field-label">Sides to copy</span>
              <Segmented
                value={values.side}
                options={SIDE_OPTIONS}
                onChange={(s) => set('side', s)}
                label="Sides to copy"
                testId="copy-form-side"
              />
            </div>
            <Toggle
              checked={values.reverseCopy}
              onChange={(on) => set('reverseCopy', on)}
              label="Reverse copy"
              hint="Open the opposite side of what the trader opens."
              testId="copy-form-reverse"
            />
          </div>
        </Section>

        <Section title="Tokens">
          {switchRow(
            'copyAll',
            'Copy every token',
            'copy-form-copy-all',
            'Off: copy only the tokens you choose.',
          )}
          {values.copyAll ? (
            <>
              {switchRow('hasExclude', 'Exclude some tokens', 'copy-form-has-exclude')}
              {values.hasExclude ? (
                <div className="span-2">
                  <TokenPicker
                    label="Tokens to exclude"
                    tokens={protocolTokens}
                    value={values.excludingTokenAddresses}
                    onChange={(list) => set('excludingTokenAddresses', list)}
                    error={errorOf('excludingTokenAddresses')}
                    testId="copy-form-exclude"
                  />
                </div>
              ) : null}
            </>
          ) : (
            <div className="span-2">
              <TokenPicker
                label="Tokens to copy"
                tokens={protocolTokens}
                value={values.tokenAddresses}
                onChange={(list) => set('tokenAddresses', list)}
                error={errorOf('tokenAddresses')}
                testId="copy-form-tokens"
              />
            </div>
          )}
        </Section>

        <Section title="Exits" hint="Close a copy by itself when it has lost or made enough.">
          {exitRow(STOP_LOSS)}
          {exitRow(TAKE_PROFIT)}
        </Section>

        <Section title="Sizing rules">
          {switchRow(
            'volumeProtection',
            'Volume protection',
            'copy-form-volume-protection',
            'Scale the margin down when the trader opens smaller than usual (their margin ÷ their average).',
          )}
          {values.volumeProtection ? (
            <Field
              label="Look-back orders"
              error={errorOf('lookBackOrders')}
              hint="Whole number ≥ 1; empty means 10."
            >
              {numberInput('lookBackOrders', '10', 'copy-form-look-back')}
            </Field>
          ) : null}
          <Field
            label="Max volume multiplier"
            suffix="×"
            error={errorOf('maxVolMultiplier')}
            hint="Increases stop at margin × this. Empty: no cap."
          >
            {numberInput('maxVolMultiplier', 'no cap', 'copy-form-max-vol')}
          </Field>
        </Section>

        <Section
          title="Skip small positions"
          hint="Decided when the trader opens; a skipped position is never copied."
        >
          {SKIP_ROWS.map(skipRow)}
        </Section>
      </form>
    </Drawer>
  );
}
