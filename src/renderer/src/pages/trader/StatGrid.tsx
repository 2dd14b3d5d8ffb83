import type { ReactElement } from 'react';
import type { RankedPositionStatistic } from '@shared/api/statistics';
import { signClass } from '@renderer/format/number';
import { STAT_FIELDS, statText, type StatGroup } from '@renderer/statistics/statistic-fields';

const GROUPS: readonly { group: StatGroup; blurb: string }[] = [
  { group: 'Profit', blurb: 'Dollars made and lost' },
  { group: 'Returns', blurb: 'Per position, on its collateral' },
  { group: 'Risk', blurb: 'Worst cases and leverage' },
  { group: 'Activity', blurb: 'How and how often' },
];

/** Every statistic of the window, grouped; each carries its formula (tooltip, or inline). */
export function StatGrid({
  record,
  showFormulas,
}: {
  record: RankedPositionStatistic;
  showFormulas: boolean;
}): ReactElement {
  const values = record as unknown as Record<string, unknown>;
  const stat = (key: string): number | null => {
    const raw = values[key];
    return typeof raw === 'number' ? raw : null;
  };
  return (
    <div className={`stat-grid${showFormulas ? ' with-formulas' : ''}`} data-testid="stat-grid">
      {GROUPS.map(({ group, blurb }) => (
        <section key={group} className="stat-group" aria-labelledby={`stat-group-${group}`}>
          <h3 id={`stat-group-${group}`} className="stat-group-title">
            {group} <span className="muted">· {blurb}</span>
          </h3>
          <dl>
            {STAT_FIELDS.filter((f) => f.group === group).map((f) => {
              const v = stat(f.key);
              // Right-aligned under each other like a table's column: two decimals always.
              const { text, why } = statText(f, stat, { fixed: true });
              return (
                <div
                  key={f.key}
                  className="tr-stat"
                  title={`${f.label}: ${f.formula}${why ? ` ${why}` : ''}`}
                  data-testid={`stat-${f.key}`}
                >
                  <dt>{f.label}</dt>
                  <dd className={`num ${why ? 'muted' : f.signed ? signClass(v) : ''}`}>{text}</dd>
                  {showFormulas ? <p className="tr-stat-formula">{f.formula}</p> : null}
                </div>
              );
            })}
          </dl>
        </section>
      ))}
    </div>
  );
}
