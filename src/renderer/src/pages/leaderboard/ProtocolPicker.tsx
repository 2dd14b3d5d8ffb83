import type { ReactElement } from 'react';
import { Popover } from '@renderer/components/Popover';
import { MAX_PROTOCOLS } from '@renderer/stores/leaderboard';

interface ProtocolPickerProps {
  known: readonly string[];
  /** null = all. */
  chosen: readonly string[] | null;
  onChange: (chosen: string[] | null) => void;
}

/** The label of a choice: "All protocols", "NOVA_ARB", "3 protocols". */
function protocolsLabel(known: readonly string[], chosen: readonly string[] | null): string {
  if (chosen === null || chosen.length === known.length) return `All protocols`;
  if (chosen.length === 1) return chosen[0]!;
  return `${chosen.length} protocols`;
}

/** Picks one, several or all protocols; the leaderboard merges their traders in one ranking. */
export function ProtocolPicker({ known, chosen, onChange }: ProtocolPickerProps): ReactElement {
  const selected = new Set(chosen ?? known);
  const toggle = (protocol: string, on: boolean): void => {
    const next = known.filter((p) => (p === protocol ? on : selected.has(p)));
    if (next.length === 0) return;
    onChange(next.length === known.length ? null : next);
  };
  return (
    <Popover
      label={<span className="protocol-label">{protocolsLabel(known, chosen)}</span>}
      ariaLabel={`Protocols: ${protocolsLabel(known, chosen)}`}
      testId="protocol-picker"
    >
      {(close) => (
        <div className="protocol-picker">
          <div className="protocol-picker-actions">
            <button type="button" className="button button-small" onClick={() => onChange(null)}>
              All
            </button>
            <span className="muted">Tick one or several</span>
          </div>
          <ul className="protocol-list">
            {known.map((p) => (
              <li key={p} className="protocol-item">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={selected.has(p)}
                    disabled={selected.has(p) && selected.size === 1}
                    onChange={(e) => toggle(p, e.target.checked)}
                    data-testid={`protocol-option-${p}`}
                  />
                  <span>{p}</span>
                </label>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    onChange([p]);
                    close();
                  }}
                  aria-label={`Only ${p}`}
                  data-testid={`protocol-only-${p}`}
                >
                  only
                </button>
              </li>
            ))}
          </ul>
          {known.length > MAX_PROTOCOLS ? (
            <p className="field-hint">The first {MAX_PROTOCOLS} ticked are ranked together.</p>
          ) : null}
        </div>
      )}
    </Popover>
  );
}
