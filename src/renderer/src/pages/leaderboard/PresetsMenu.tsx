import type { FormEvent, ReactElement } from 'react';
import { useId, useState } from 'react';
import { CloseIcon } from '@renderer/components/icons';
import { Popover } from '@renderer/components/Popover';
import { useLeaderboard } from '@renderer/stores/leaderboard';
import { toast } from '@renderer/stores/toasts';
import { BUILT_IN_PRESETS, type FilterPreset } from '@renderer/filters/filter-presets';
import { fieldLabel } from '@renderer/filters/range-filters';

/** A preset's filters in words, for its tooltip: "Win rate ≥ 55 · Trades ≥ 20". */
function summary(preset: FilterPreset): string {
  const parts = preset.filters.map((f) => {
    const label = fieldLabel(f.field);
    if (f.min && f.max) return `${label} ${f.min}–${f.max}`;
    return f.min ? `${label} ≥ ${f.min}` : `${label} ≤ ${f.max}`;
  });
  return parts.join(' · ') || 'No filters';
}

/** A preset's name and filters in words; `onApply` runs on a click. */
function PresetButton({
  preset,
  onApply,
  testId,
}: {
  preset: FilterPreset;
  onApply(): void;
  testId?: string;
}): ReactElement {
  return (
    <button
      type="button"
      className="preset-item"
      title={summary(preset)}
      onClick={onApply}
      data-testid={testId}
    >
      <span>{preset.name}</span>
      <span className="preset-summary">{summary(preset)}</span>
    </button>
  );
}

/** Saved filter sets: the built-in starting points and the user's own (kept in this window). */
export function PresetsMenu(): ReactElement {
  const presets = useLeaderboard((s) => s.presets);
  const filters = useLeaderboard((s) => s.filters);
  const applyPreset = useLeaderboard((s) => s.applyPreset);
  const savePreset = useLeaderboard((s) => s.savePreset);
  const deletePreset = useLeaderboard((s) => s.deletePreset);
  const [name, setName] = useState('');
  const nameId = useId();

  // Applying a preset closes the menu.
  const pick = (preset: FilterPreset, close: () => void): void => {
    applyPreset(preset);
    close();
  };

  const onSave = (e: FormEvent): void => {
    e.preventDefault();
    if (!name.trim()) return;
    savePreset(name);
    toast({ tone: 'success', title: 'Preset saved', message: `“${name.trim()}” is in the Presets menu.` });
    setName('');
  };

  return (
    <Popover label="Presets" testId="presets">
      {(close) => (
        <div className="presets">
          <p className="popover-title">Starting points</p>
          <ul>
            {BUILT_IN_PRESETS.map((p) => (
              <li key={p.name}>
                <PresetButton preset={p} onApply={() => pick(p, close)} />
              </li>
            ))}
          </ul>
          <p className="popover-title">Saved</p>
          {presets.length === 0 ? (
            <p className="field-hint">Nothing saved yet: set filters, name them below and save.</p>
          ) : (
            <ul>
              {presets.map((p) => (
                <li key={p.name} className="preset-saved">
                  <PresetButton preset={p} onApply={() => pick(p, close)} testId="preset-saved" />
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Delete preset ${p.name}`}
                    onClick={() => deletePreset(p.name)}
                  >
                    <CloseIcon />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form className="preset-save" onSubmit={onSave}>
            <label htmlFor={nameId} className="visually-hidden">
              Preset name
            </label>
            <input
              id={nameId}
              className="input"
              placeholder={filters.length ? 'Name these filters' : 'Add filters first'}
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.target.value)}
              disabled={filters.length === 0}
              data-testid="preset-name"
            />
            <button
              type="submit"
              className="button button-small"
              disabled={filters.length === 0 || !name.trim()}
              data-testid="preset-save"
            >
              Save
            </button>
          </form>
        </div>
      )}
    </Popover>
  );
}
