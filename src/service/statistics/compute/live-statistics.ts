import { RANKING_KEYS } from '../../../shared/api/statistics';
import type { RankingInput } from '../formulas/rankings';
import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';
import { CURRENT_ROWS } from '../store/statistic-rows';
import { markPrices, traderFacts } from './facts';
import { IncrementalStatistics } from './incremental';
import { writeGeneration, type RecordToStore } from '../store/writer';

/**
 * Statistics that follow a live market: when a trader's positions change, that trader's records
 * are recomputed and stored at once (a new generation), and the populations move in the ranking
 * index. Everyone else's stored percentiles are rewritten from the index by `refreshRankings`,
 * which the live market calls every few seconds, so a burst of closes costs one rewrite.
 */
export class LiveStatistics {
  private engine: IncrementalStatistics | null = null;
  private readonly dirty = new Set<string>();

  constructor(
    private readonly db: ServiceDb,
    private readonly nowMs: () => number,
  ) {}

  /**
   * Drops the ranking index held in memory: after a rollback undid stored records it had taken
   * in, it is rebuilt from what is stored when next used.
   */
  forget(): void {
    this.engine = null;
  }

  /** A trader's positions on a protocol changed: recompute, store and rank its records. */
  traderChanged(protocol: string, account: string): RecordToStore[] {
    const nowMs = this.nowMs();
    const records = this.index().updateTrader(
      protocol,
      account,
      traderFacts(this.db, account, protocol),
      nowMs,
      markPrices(this.db),
    );
    writeGeneration(this.db, { protocol, account }, records, nowMs);
    this.dirty.add(protocol);
    return records;
  }

  /** Rewrites the stored percentiles of the protocols whose populations moved; returns rows changed. */
  refreshRankings(): number {
    if (this.dirty.size === 0 || !this.engine) return 0;
    const index = this.engine.index;
    const rows = prepareCached(
      this.db,
      `SELECT type, id, account FROM statistics WHERE protocol = ? AND ${CURRENT_ROWS}`,
    );
    const update = prepareCached(
      this.db,
      `UPDATE statistics SET ${RANKING_KEYS.map((k) => `"rk_${k}" = ?`).join(', ')} WHERE protocol = ? AND type = ? AND id = ? AND ${CURRENT_ROWS}`,
    );
    let changed = 0;
    this.db.transaction(() => {
      for (const protocol of this.dirty) {
        for (const row of rows.all(protocol) as { type: string; id: string; account: string }[]) {
          const ranking = index.rankingOf(protocol, row.type, row.account);
          if (!ranking) continue;
          update.run(...RANKING_KEYS.map((k) => ranking[k]), protocol, row.type, row.id);
          changed += 1;
        }
      }
      // Rankings are not part of a point in time's records, so they change in place; the new
      // generation number makes every cached answer that showed the old ones unreachable.
      prepareCached(
        this.db,
        "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'statistics_generation'",
      ).run();
    })();
    this.dirty.clear();
    return changed;
  }

  /** The ranking index, built from the stored records the first time it is needed. */
  private index(): IncrementalStatistics {
    if (this.engine) return this.engine;
    const engine = new IncrementalStatistics();
    const select = `SELECT protocol, type, account, ${RANKING_KEYS.map((k) => `"${k}"`).join(', ')} FROM statistics WHERE ${CURRENT_ROWS}`;
    for (const row of this.db.prepare(select).iterate() as IterableIterator<
      RankingInput & { protocol: string; type: string; account: string }
    >) {
      engine.index.set(row.protocol, row.type, row.account, row);
    }
    this.engine = engine;
    return engine;
  }
}
