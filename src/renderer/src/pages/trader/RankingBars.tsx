import type { ReactElement } from 'react';
import type { Ranking } from '../../../../shared/api/statistics';
import { RANKING_KEYS } from '../../../../shared/api/statistics';
import { formatNumber } from '../../format/number';
import { averageScore, rankingFormula, statField } from '../leaderboard/statistic-fields';

const tone = (v: number): string => (v >= 75 ? 'high' : v >= 40 ? 'mid' : 'low');

/** The 13 percentiles as bars (100 = best of the protocol), sorted best first, and their average. */
export function RankingBars({ ranking }: { ranking: Ranking }): ReactElement {
  const score = averageScore(ranking);
  const keys = [...RANKING_KEYS].sort((a, b) => ranking[b] - ranking[a]);
  return (
    <div className="ranking" data-testid="ranking">
      <div
        className="ranking-score"
        title="The average of the 13 percentiles below: 100 would be the best trader of the protocol on every one."
      >
        <span className={`ranking-score-value num pct-text-${tone(score ?? 0)}`} data-testid="ranking-score">
          {formatNumber(score)}
        </span>
        <span className="ranking-score-label">
          average percentile
          <br />
          <span className="muted">of 13, among this protocol’s traders</span>
        </span>
      </div>
      <ul className="ranking-bars">
        {keys.map((k) => {
          const v = ranking[k];
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
              <span className="num ranking-value">{formatNumber(v)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
