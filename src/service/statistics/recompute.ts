import { RANKING_KEYS } from '../../shared/api/statistics';
import { computeTraderStatistics } from '../analytics/statistics';
import { rankPopulation, type RankingInput } from '../analytics/rankings';
import type { PositionFacts } from '../analytics/position-facts';
import { WINDOWS } from '../analytics/windows';
import type { ServiceDb } from '../store/database';
import { currentGeneration } from '../store/statistics';
import { FACTS_SELECT, factsOfRow, markPrices } from './facts';
import { writeGeneration, type RecordToStore } from './writer';

/**
 * Recomputes every statistic record and ranking from the positions, as of `nowMs`, and stores
 * them as a new generation. (The statistics engine issue makes this fast and incremental.)
 */
export function recomputeAll(db: ServiceDb, nowMs: number): { records: number; generation: number } {
  currentGeneration(db); // make sure the generation counter exists before the write transaction
  const mark = markPrices(db);
  const records: RecordToStore[] = [];
  for (const positions of tradersOf(db)) {
    const first = positions[0] as PositionFacts;
    const byWindow = computeTraderStatistics(positions, nowMs, mark);
    for (const type of WINDOWS) {
      const values = byWindow[type];
      if (values)
        records.push({
          account: first.account,
          protocol: first.protocol,
          type,
          values,
          ranking: {} as RecordToStore['ranking'],
        });
    }
  }
  rankInPlace(records);
  const generation = writeGeneration(db, 'all', records, nowMs);
  return { records: records.length, generation };
}

/** Positions grouped by (protocol, account), one group at a time. */
function* tradersOf(db: ServiceDb): Generator<PositionFacts[]> {
  let group: PositionFacts[] = [];
  const rows = db.prepare(`SELECT ${FACTS_SELECT} FROM positions ORDER BY protocol, account`).iterate();
  for (const row of rows) {
    const p = factsOfRow(row as Parameters<typeof factsOfRow>[0]);
    const head = group[0];
    if (head && (head.protocol !== p.protocol || head.account !== p.account)) {
      yield group;
      group = [];
    }
    group.push(p);
  }
  if (group.length > 0) yield group;
}

/** Fills each record's ranking within its population (same protocol and window). */
function rankInPlace(records: RecordToStore[]): void {
  const populations = new Map<string, RecordToStore[]>();
  for (const r of records) {
    const key = `${r.protocol}|${r.type}`;
    const list = populations.get(key);
    if (list) list.push(r);
    else populations.set(key, [r]);
  }
  for (const members of populations.values()) {
    const inputs = members.map(
      (m) => Object.fromEntries(RANKING_KEYS.map((k) => [k, m.values[k]])) as RankingInput,
    );
    rankPopulation(inputs).forEach((ranking, i) => ((members[i] as RecordToStore).ranking = ranking));
  }
}
