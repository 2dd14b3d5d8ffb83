import type { MarkPriceOf, PositionFacts } from '../formulas/position-facts';
import { computeTraderStatistics } from '../formulas/statistics';
import { WINDOWS } from '../formulas/windows';
import { RankingIndex } from './ranking-index';
import type { RecordToStore } from '../store/writer';

/**
 * Statistics kept current one trader at a time: when a trader's position closes (or changes),
 * only that trader's records are recomputed, and the rankings of that protocol's populations are
 * updated in the index, without touching anyone else's records. A full recompute gives the same
 * records and rankings (tests check it).
 */
export class IncrementalStatistics {
  readonly index = new RankingIndex();

  /** Starts from a full recompute's records. */
  load(records: Iterable<RecordToStore>): void {
    for (const r of records) this.index.set(r.protocol, r.type, r.account, r.values);
  }

  /**
   * Recomputes one trader's records on one protocol from all its positions, updates the
   * populations, and returns the trader's records with their fresh rankings (windows the trader
   * no longer has are removed from their populations and absent from the answer).
   */
  updateTrader(
    protocol: string,
    account: string,
    positions: Iterable<PositionFacts>,
    nowMs: number,
    markPrice: MarkPriceOf,
  ): RecordToStore[] {
    const byWindow = computeTraderStatistics(positions, nowMs, markPrice);
    for (const type of WINDOWS) this.index.set(protocol, type, account, byWindow[type] ?? null);
    const out: RecordToStore[] = [];
    for (const type of WINDOWS) {
      const values = byWindow[type];
      const ranking = values ? this.index.rankingOf(protocol, type, account) : null;
      if (values && ranking) out.push({ account, protocol, type, values, ranking });
    }
    return out;
  }
}
