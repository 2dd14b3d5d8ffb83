import type { ReactElement } from 'react';
import { useId } from 'react';
import { formatUsd } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { OFFERED_LOCALES, localeName, systemLocaleName, useLocale } from '@renderer/format/locale-store';

/** Settings → the locale of dates and numbers: the OS's by default, or one chosen here. */
export function LocaleSetting(): ReactElement {
  const override = useLocale((s) => s.override);
  const choose = useLocale((s) => s.choose);
  const id = useId();
  const system = systemLocaleName();
  const offered: readonly string[] =
    override && !(OFFERED_LOCALES as readonly string[]).includes(override)
      ? [override, ...OFFERED_LOCALES]
      : OFFERED_LOCALES;
  // A fixed moment, so that the example shows the format, not the time now.
  const example = `${formatTimestamp('2025-11-21T16:29:03Z')} · ${formatUsd(-1234567.5)}`;
  return (
    <div className="setting-row">
      <div>
        <label className="setting-name" htmlFor={id}>
          Dates and numbers
        </label>
        <p className="setting-hint" data-testid="settings-locale-example">
          As written here: {example}
        </p>
      </div>
      <select
        id={id}
        className="input select select-compact"
        value={override ?? ''}
        onChange={(e) => choose(e.target.value === '' ? null : e.target.value)}
        data-testid="settings-locale"
      >
        <option value="">{`System (${localeName(system)})`}</option>
        {offered.map((tag) => (
          <option key={tag} value={tag}>
            {localeName(tag)}
          </option>
        ))}
      </select>
    </div>
  );
}
