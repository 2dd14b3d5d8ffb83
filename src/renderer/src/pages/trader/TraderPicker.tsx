import type { FormEvent, ReactElement } from 'react';
import { useId, useState } from 'react';
import { TraderIcon } from '@renderer/components/icons';
import { shortAddress } from '@renderer/format/address';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { useLeaderboard } from '@renderer/stores/leaderboard';
import { useNavigation } from '@renderer/stores/navigation';
import { useTraderView } from '@renderer/stores/trader';
import { isTraderAddress } from '@renderer/components/palette/palette-items';

/** The trader page with no trader chosen: paste an address, or reopen a recent one. */
export function TraderPicker(): ReactElement {
  const known = useLeaderboard((s) => s.knownProtocols);
  const tokens = useTokenList();
  const recent = useTraderView((s) => s.recent);
  const openTrader = useNavigation((s) => s.openTrader);
  const go = useNavigation((s) => s.go);
  const protocols = tokens ? tokens.groups.map((g) => g.protocol) : known;
  const [address, setAddress] = useState('');
  const [protocol, setProtocol] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const addressId = useId();
  const protocolId = useId();
  const chosenProtocol = protocol || protocols[0] || '';

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const account = address.trim();
    if (!isTraderAddress(account)) {
      setProblem(
        'Paste a 0x address of 40 hex digits (or another chain’s address of 20 to 100 letters and digits).',
      );
      return;
    }
    if (!chosenProtocol) {
      setProblem('No protocol is known yet: wait for the token list, or open a trader from the Leaderboard.');
      return;
    }
    openTrader({ protocol: chosenProtocol, account });
  };

  return (
    <section className="page" aria-labelledby="page-title" data-testid="trader-picker">
      <header className="page-header">
        <h1 id="page-title">Trader</h1>
        <p className="page-lede">One trader’s statistics, percentile rankings, daily PnL and positions.</p>
      </header>
      <div className="trader-picker-layout">
        <form className="panel panel-body trader-picker" onSubmit={submit}>
          <div className="empty-state-icon">
            <TraderIcon />
          </div>
          <p className="empty-state-title">Choose a trader</p>
          <p className="panel-text">
            Open a row of the{' '}
            <a href="#/leaderboard" onClick={(e) => (e.preventDefault(), go('leaderboard'))}>
              Leaderboard
            </a>
            , or paste an address here. Ctrl+K also opens a trader from anywhere.
          </p>
          <div className="trader-picker-fields">
            <div className="trader-picker-address">
              <label htmlFor={addressId} className="field-label">
                Address
              </label>
              <input
                id={addressId}
                className={`input mono${problem ? ' is-invalid' : ''}`}
                placeholder="0x…"
                data-page-filter
                value={address}
                onChange={(e) => {
                  setAddress(e.target.value);
                  setProblem(null);
                }}
                spellCheck={false}
                autoComplete="off"
                data-testid="trader-address-input"
              />
            </div>
            <div>
              <label htmlFor={protocolId} className="field-label">
                Protocol
              </label>
              <select
                id={protocolId}
                className="input select"
                value={chosenProtocol}
                onChange={(e) => setProtocol(e.target.value)}
                data-testid="trader-protocol-select"
              >
                {protocols.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-primary" data-testid="trader-open">
              Open
            </button>
          </div>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
        {recent.length > 0 ? (
          <section className="panel" aria-labelledby="recent-title">
            <header className="panel-header">
              <h2 id="recent-title">Opened lately</h2>
            </header>
            <ul className="recent-list">
              {recent.map((r) => (
                <li key={`${r.protocol}/${r.account}`}>
                  <button type="button" className="recent-item" onClick={() => openTrader(r)}>
                    <span className="mono">{shortAddress(r.account, 6, 4)}</span>
                    <span className="lb-protocol">{r.protocol}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </section>
  );
}
