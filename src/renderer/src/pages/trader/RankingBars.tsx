import type { ReactElement } from 'react';
import type { Ranking } from '@shared/api/statistics';
import { RANKING_KEYS } from '@shared/api/statistics';
import { formatNumber } from '@renderer/format/number';
import { averageScore, rankingFormula, statField } from '@renderer/statistics/statistic-fields';

const tone = (v: number): string => (v >= 75 ? 'high' : v >= 40 ? 'mid' : 'low');

/**
 * The percentiles as bars (100 = best of the protocol), sorted best first, and their average: the
 * spec's 13, and the local service's extra keys when the ranking has them (other APIs omit them).
 */
export function RankingBars({ ranking }: { ranking: Ranking }): ReactElement {
  const score = averageScore(ranking);
  const present = RANKING_KEYS.flatMap((k) => {
    const v = ranking[k];
    return typeof v === 'number' ? [{ k, v }] : [];
  });
  const bars = present.sort((a, b) => b.v - a.v);
  return (
    <div className="ranking" data-testid="ranking">
      <div
        className="ranking-score"
        title={`The average of the ${bars.length} percentiles below: 100 would be the best trader of the protocol on every one.`}
      >
        <span className={`ranking-score-value num pct-text-${tone(score ?? 0)}`} data-testid="ranking-score">
          {formatNumber(score)}
        </span>
        <span className="ranking-score-label">
          average percentile
          <br />
          <span className="muted">of {bars.length}, among this protocol’s traders</span>
        </span>
      </div>
      <ul className="ranking-bars">
        {bars.map(({ k, v }) => {
          return (
            <li key={k} className="ranking-bar" title={rankingFormula(k)}>
              <span className="ranking-label">{statField(k).label}</span>
              <span
                className={`pct-bar pct-${tone(v)}`}
                role="meter"
                aria-label={`${statField(k).label} percentile`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={v}
              >
                <span style={{ width: `${Math.max(1.5, Math.min(100, v))}%` }} />
              </span>
              <span className="num ranking-value">{formatNumber(v, { fixed: true })}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
