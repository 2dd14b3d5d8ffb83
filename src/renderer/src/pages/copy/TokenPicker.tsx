import type { ReactElement } from 'react';
import { useId, useMemo, useState } from 'react';
import type { TokensList } from '@shared/ipc/contract';
import { CloseIcon } from '@renderer/components/icons';
import { shortAddress } from '@renderer/format/address';

type Token = TokensList['groups'][number]['tokens'][number];

interface TokenPickerProps {
  label: string;
  /** The protocol's tradable tokens (`tokens:list`); null while they load. */
  tokens: readonly Token[] | null;
  /** The chosen index-token addresses. */
  value: readonly string[];
  onChange(value: string[]): void;
  error?: string | null;
  hint?: string;
  testId?: string;
}

const lower = (s: string): string => s.toLowerCase();

/**
 * Chooses tokens by symbol; the copy trade stores their index-token addresses (all of a symbol's,
 * since a symbol may trade under several). Addresses that the protocol does not list (chosen for
 * another protocol) stay visible so they can be removed.
 */
export function TokenPicker({
  label,
  tokens,
  value,
  onChange,
  error,
  hint,
  testId,
}: TokenPickerProps): ReactElement {
  const [query, setQuery] = useState('');
  const groupId = useId();
  const chosen = useMemo(() => new Set(value.map(lower)), [value]);
  const known = useMemo(() => new Set((tokens ?? []).flatMap((t) => t.indexTokens.map(lower))), [tokens]);
  const unknown = value.filter((a) => !known.has(lower(a)));
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return [...(tokens ?? [])]
      .filter((t) => t.indexTokens.length > 0 && (q === '' || t.symbol.toLowerCase().includes(q)))
      .sort((a, b) => a.symbol.localeCompare(b.symbol));
  }, [tokens, query]);

  const isChosen = (t: Token): boolean => t.indexTokens.every((a) => chosen.has(lower(a)));
  const toggle = (t: Token): void => {
    const addresses = new Set(t.indexTokens.map(lower));
    onChange(
      isChosen(t)
        ? value.filter((a) => !addresses.has(lower(a)))
        : [...value, ...t.indexTokens.filter((a) => !chosen.has(lower(a)))],
    );
  };
  const count = (tokens ?? []).filter(isChosen).length;

  return (
    <div className={`token-picker${error ? ' has-error' : ''}`} data-testid={testId}>
      <div className="token-picker-head">
        <span className="field-label" id={groupId}>
          {label}
        </span>
        <span className="muted token-picker-count">{count > 0 ? `${count} chosen` : 'none chosen'}</span>
        {(tokens?.length ?? 0) > 12 ? (
          <input
            type="search"
            className="input token-picker-search"
            placeholder="Find a symbol"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-label={`Find a symbol for ${label}`}
          />
        ) : null}
      </div>
      {tokens === null ? (
        <p className="field-hint">Loading the protocol’s tokens…</p>
      ) : tokens.length === 0 ? (
        <p className="field-hint">Choose a protocol first: its tradable tokens appear here.</p>
      ) : (
        <div className="token-chips" role="group" aria-labelledby={groupId}>
          {shown.map((t) => {
            const on = isChosen(t);
            return (
              <button
                key={t.symbol}
                type="button"
                className={`token-chip${on ? ' is-on' : ''}`}
                aria-pressed={on}
                onClick={() => toggle(t)}
                title={t.indexTokens.join('\n')}
                data-testid={testId ? `${testId}-${t.symbol}` : undefined}
              >
                {t.symbol}
                {t.isForex ? <span className="token-chip-fx">FX</span> : null}
              </button>
            );
          })}
          {shown.length === 0 ? (
            <span className="field-hint">No symbol contains “{query.trim()}”.</span>
          ) : null}
        </div>
      )}
      {unknown.length > 0 ? (
        <div className="token-chips token-unknown">
          <span className="field-hint">Not traded on this protocol:</span>
          {unknown.map((a) => (
            <button
              key={a}
              type="button"
              className="token-chip is-on is-unknown"
              onClick={() => onChange(value.filter((x) => x !== a))}
              aria-label={`Remove ${a}`}
              title={a}
            >
              <span className="mono">{shortAddress(a)}</span>
              <CloseIcon />
            </button>
          ))}
        </div>
      ) : null}
      {error ? <p className="field-error">{error}</p> : hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}
