import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionFacts } from '../../../../../src/service/statistics/formulas/position-facts';
import { computeAllFromColumns } from '../../../../../src/service/statistics/compute/engine';
import { IncrementalStatistics } from '../../../../../src/service/statistics/compute/incremental';
import type { PositionColumns } from '../../../../../src/service/statistics/compute/position-columns';
import type { RecordToStore } from '../../../../../src/service/statistics/store/writer';
import { generatePositions } from '../../../../bench/position-columns';

const NOW = Date.UTC(2026, 10, 21, 15);
const mark = () => 123;

/** Every row of the columns as objects (fine at test sizes). */
function factsOf(c: PositionColumns): PositionFacts[] {
  return Array.from({ length: c.count }, (_, i) => ({
    // Ids sort like the rows, as in the store, whose columns are read ordered by (close time, id).
    id: `p${String(i).padStart(7, '0')}`,
    account: c.accounts[c.account[i]!]!,
    protocol: c.protocols[c.protocol[i]!]!,
    indexToken: c.tokens[c.token[i]!]!,
    pair: c.pairs[c.token[i]!]!,
    isLong: c.isLong[i] === 1,
    size: c.size[i]!,
    collateral: c.collateral[i]!,
    averagePrice: c.averagePrice[i]!,
    realisedPnl: c.realisedPnl[i]!,
    fee: c.fee[i]!,
    funding: c.funding[i]!,
    isLiquidate: c.isLiquidate[i] === 1,
    orderCount: c.orderCount[i]!,
    openTimeMs: c.openTimeMs[i]!,
    closeTimeMs: Number.isNaN(c.closeTimeMs[i]!) ? null : c.closeTimeMs[i]!,
  }));
}

const full = (c: PositionColumns) => {
  const out = new Map<string, RecordToStore>();
  computeAllFromColumns(c, NOW, mark, (_p, records) =>
    records.forEach((r) => out.set(`${r.protocol}|${r.account}|${r.type}`, r)),
  );
  return out;
};

describe('incremental statistics', () => {
  it('equal a full recompute after closing positions one trader at a time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        (seed, picks) => {
          const c = generatePositions(3_000, { seed, nowMs: NOW, accounts: 40, protocols: 2, days: 30 });
          const engine = new IncrementalStatistics();
          engine.load(full(c).values());
          const facts = factsOf(c);
          let last: RecordToStore[] = [];
          for (const pick of picks) {
            // A position of some trader closes now (or a closed one is revised): its trader is recomputed.
            const p = facts[pick % facts.length]!;
            p.closeTimeMs = NOW - 3 * 86_400_000;
            p.realisedPnl = Math.round((pick % 997) - 400);
            c.closeTimeMs[pick % facts.length] = p.closeTimeMs;
            c.realisedPnl[pick % facts.length] = p.realisedPnl;
            const mine = facts.filter((f) => f.account === p.account && f.protocol === p.protocol);
            last = engine.updateTrader(p.protocol, p.account, mine, NOW, mark);
          }
          const expected = full(c);
          for (const r of last) {
            const e = expected.get(`${r.protocol}|${r.account}|${r.type}`)!;
            expect(r.values).toEqual(e.values);
            expect(r.ranking).toEqual(e.ranking);
          }
          // Everyone's ranking in the index equals the full recompute's.
          for (const e of expected.values())
            expect(engine.index.rankingOf(e.protocol, e.type, e.account)).toEqual(e.ranking);
        },
      ),
      { numRuns: 15 },
    );
    // Fifteen full recomputes of 3,000 positions: seconds on a loaded 2-core machine.
  }, 60_000);

  it('drops a window a trader no longer has', () => {
    const engine = new IncrementalStatistics();
    const p: PositionFacts = {
      id: 'a',
      account: '0xA',
      protocol: 'P',
      indexToken: 't',
      pair: 'T/USD',
      isLong: true,
      size: 100,
      collateral: 10,
      averagePrice: 1,
      realisedPnl: 5,
      fee: 1,
      funding: 0,
      isLiquidate: false,
      orderCount: 2,
      openTimeMs: NOW - 5 * 86_400_000,
      closeTimeMs: NOW - 2 * 86_400_000,
    };
    expect(
      engine
        .updateTrader('P', '0xA', [p], NOW, mark)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['D15', 'D30', 'D60', 'D7', 'FULL']);
    expect(engine.index.size('P', 'D7')).toBe(1);
    const older = { ...p, openTimeMs: NOW - 40 * 86_400_000, closeTimeMs: NOW - 20 * 86_400_000 };
    expect(
      engine
        .updateTrader('P', '0xA', [older], NOW, mark)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['D30', 'D60', 'FULL']);
    expect(engine.index.size('P', 'D7')).toBe(0);
    expect(engine.index.rankingOf('P', 'FULL', '0xA')).toMatchObject({ pnl: 100 });
  });
});
