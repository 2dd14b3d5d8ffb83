import type { FormEvent, ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { AmountType } from '@shared/api/copy-trades';
import { Field } from '@renderer/components/Field';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { parseAccounts, settingsIssues, type BacktestSettings } from './backtest-settings';
import { useBacktest } from './backtest-store';

type Key = keyof BacktestSettings;

function Check({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange(v: boolean): void;
  testId: string;
}): ReactElement {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span>{label}</span>
    </label>
  );
}

/** The configuration: the copy trade's options and the costs of a real copy. */
export function SettingsPanel(): ReactElement {
  const settings = useBacktest((s) => s.settings);
  const setSettings = useBacktest((s) => s.setSettings);
  const run = useBacktest((s) => s.run);
  const running = useBacktest((s) => s.running);
  const copyWith = useBacktest((s) => s.copyWith);
  const tokens = useTokenList();
  const [accountsText, setAccountsText] = useState(() => settings.accounts.join('\n'));
  const [attempted, setAttempted] = useState(false);
  const issues = useMemo(() => settingsIssues(settings), [settings]);
  const count = Object.keys(issues).length;
  const error = (key: Key): string | null => (attempted ? (issues[key] ?? null) : null);
  const protocols = useMemo(() => {
    const list = (tokens?.groups ?? []).map((g) => g.protocol);
    return settings.protocol && !list.includes(settings.protocol) ? [settings.protocol, ...list] : list;
  }, [tokens, settings.protocol]);

  const text = (
    key: Key,
    label: string,
    hint: string,
    options: { suffix?: string; testId?: string } = {},
  ) => (
    <Field label={label} hint={hint} error={error(key)} suffix={options.suffix} testId={options.testId}>
      {(control) => (
        <input
          {...control}
          className="input num"
          inputMode="decimal"
          value={settings[key] as string}
          onChange={(e) => setSettings({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  const exit = (prefix: 'stopLoss' | 'takeProfit', label: string) => {
    const on = prefix === 'stopLoss' ? settings.enableStopLoss : settings.enableTakeProfit;
    const enable = prefix === 'stopLoss' ? 'enableStopLoss' : 'enableTakeProfit';
    return (
      <div className="bt-exit">
        <Check
          label={label}
          checked={on}
          onChange={(v) => setSettings({ [enable]: v })}
          testId={`bt-${enable}`}
        />
        {on ? (
          <div className="bt-exit-row">
            {text(`${prefix}Amount`, 'Amount', 'Per position', { testId: `bt-${prefix}Amount` })}
            <label className="inline-field">
              <span className="visually-hidden">{label} unit</span>
              <select
                className="input select"
                value={settings[`${prefix}Type`]}
                onChange={(e) => setSettings({ [`${prefix}Type`]: e.target.value as AmountType })}
              >
                <option value="PERCENT">% of margin</option>
                <option value="USD">USD</option>
              </select>
            </label>
          </div>
        ) : null}
      </div>
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setAttempted(true);
    if (count === 0) void run();
  };

  return (
    <section className="panel bt-settings" aria-labelledby="bt-settings-title" data-testid="bt-settings">
      <header className="panel-header">
        <h2 id="bt-settings-title">Settings</h2>
        <span className="panel-count">the copy trade’s options, plus what a real copy pays</span>
      </header>
      <form className="panel-body bt-form" onSubmit={submit} noValidate>
        <div className="bt-form-grid">
          <Field label="Protocol" error={error('protocol')} testId="bt-protocol">
            {(control) => (
              <select
                {...control}
                className="input select"
                value={settings.protocol}
                onChange={(e) => setSettings({ protocol: e.target.value })}
              >
                <option value="">Choose…</option>
                {protocols.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Traders"
            hint="One or several (up to 50): one per line"
            error={error('accounts')}
            className="bt-span-2"
            testId="bt-accounts"
          >
            {(control) => (
              <textarea
                {...control}
                className="input bt-accounts"
                rows={2}
                spellCheck={false}
                value={accountsText}
                onChange={(e) => {
                  setAccountsText(e.target.value);
                  setSettings({ accounts: parseAccounts(e.target.value) });
                }}
              />
            )}
          </Field>
          {text('balance', 'Starting balance', 'USD, carried position to position', {
            suffix: 'USD',
            testId: 'bt-balance',
          })}
          {text('orderVolume', 'Margin per order', 'USD per copied position', {
            suffix: 'USD',
            testId: 'bt-orderVolume',
          })}
          {text('leverage', 'Leverage', '2 to 50', { suffix: '×', testId: 'bt-leverage' })}
          <Field label="From" hint="UTC day" error={error('fromDate')}>
            {(control) => (
              <input
                {...control}
                type="date"
                className="input"
                value={settings.fromDate}
                onChange={(e) => setSettings({ fromDate: e.target.value })}
              />
            )}
          </Field>
          <Field label="To" hint="UTC day, included" error={error('toDate')}>
            {(control) => (
              <input
                {...control}
                type="date"
                className="input"
                value={settings.toDate}
                onChange={(e) => setSettings({ toDate: e.target.value })}
              />
            )}
          </Field>
          {text('maxVolMultiplier', 'Max volume multiplier', 'Caps increases; empty = no cap', {
            suffix: '×',
          })}
          {text('delaySeconds', 'Delay', 'Copy fills this long after the trader', {
            suffix: 's',
            testId: 'bt-delay',
          })}
          {text('slippageBps', 'Slippage', 'Against the copy, every fill', { suffix: 'bps' })}
          {text('feePercent', 'Fee per fill', 'Empty = the venue’s rate', { suffix: '%' })}
        </div>
        <div className="bt-form-options">
          {exit('stopLoss', 'Stop loss')}
          {exit('takeProfit', 'Take profit')}
          <div className="bt-exit">
            <Check
              label="Volume protection"
              checked={settings.volumeProtection}
              onChange={(v) => setSettings({ volumeProtection: v })}
              testId="bt-volumeProtection"
            />
            {settings.volumeProtection ? text('lookBackOrders', 'Look-back orders', 'Orders averaged') : null}
          </div>
          <div className="bt-exit">
            <Check
              label="Reverse copy"
              checked={settings.reverseCopy}
              onChange={(v) => setSettings({ reverseCopy: v })}
              testId="bt-reverseCopy"
            />
            <Check
              label="Funding"
              checked={settings.funding}
              onChange={(v) => setSettings({ funding: v })}
              testId="bt-funding"
            />
          </div>
        </div>
        <div className="form-footer bt-form-footer">
          <p className="form-footer-status" role="status">
            {attempted && count > 0 ? (
              <span className="field-error" data-testid="bt-issue-count">
                {count === 1 ? '1 field needs fixing' : `${count} fields need fixing`}
              </span>
            ) : (
              <span className="muted">Replays the traders’ stored orders with these settings.</span>
            )}
          </p>
          <button
            type="button"
            className="button"
            onClick={() => copyWith(settings)}
            disabled={settings.accounts.length === 0 || !settings.protocol}
            title="Opens the copy-trade form with these settings"
            data-testid="bt-copy-with"
          >
            Copy with these settings
          </button>
          <button type="submit" className="button button-primary" disabled={running} data-testid="bt-run">
            {running ? 'Running…' : 'Run backtest'}
          </button>
        </div>
      </form>
    </section>
  );
}
