import { describe, expect, it } from 'vitest';
import { MISSING } from '@renderer/format/number';
import { statField, statText } from '@renderer/statistics/statistic-fields';

/** A record's figures as statText reads them; any other is missing. */
const record =
  (figures: Record<string, number>) =>
  (key: string): number | null =>
    figures[key] ?? null;

describe('a statistic as a page shows it', () => {
  const ratio = statField('realisedProfitLossRatio');
  const netRatio = statField('profitLossRatio');

  it('shows no value for a profit/loss ratio over no losses, which the service writes as 0', () => {
    const allWins = record({ realisedProfitLossRatio: 0, profitLossRatio: 0, totalWin: 3, totalLose: 0 });
    expect(statText(ratio, allWins, { fixed: true })).toEqual({
      text: MISSING,
      why: 'No losing positions: there is no average loss to divide by (the service writes 0).',
    });
    expect(statText(netRatio, allWins).text).toBe(MISSING);
  });

  it('shows no value for one over no wins', () => {
    const allLosses = record({
      realisedProfitLossRatio: 0,
      totalWin: 0,
      totalLose: 2,
      realisedTotalLoss: -40,
    });
    expect(statText(ratio, allLosses).why).toBe(
      'No winning positions: there is no average win (the service writes 0).',
    );
  });

  it('shows the figure when it has one, and a true 0 of any other statistic', () => {
    const both = record({
      realisedProfitLossRatio: 1.1,
      totalWin: 2,
      totalLose: 1,
      realisedTotalLoss: -5,
      pnl: 0,
    });
    expect(statText(ratio, both, { fixed: true })).toEqual({ text: '1.10', why: null });
    expect(statText(statField('pnl'), both)).toEqual({ text: '$0.00', why: null });
    expect(
      statText(statField('maxDrawdown'), record({ maxDrawdown: 0, totalLose: 0 }), { fixed: true }),
    ).toEqual({ text: '0.00%', why: null });
  });
});
