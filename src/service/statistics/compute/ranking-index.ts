import { RANKING_KEYS, type FullRanking, type RankingKey } from '../../../shared/api/statistics';
import { RANKING_DIRECTION, goodness, lowerBound, percentile, type RankingInput } from '../formulas/rankings';

/** A growable ascending array of numbers with insert and remove by value. */
class SortedValues {
  private data = new Float64Array(16);
  length = 0;

  insert(x: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const at = lowerBound(this.view(), x);
    this.data.copyWithin(at + 1, at, this.length);
    this.data[at] = x;
    this.length += 1;
  }

  remove(x: number): void {
    const at = lowerBound(this.view(), x);
    if (at >= this.length || this.data[at] !== x) throw new Error('SortedValues.remove: value not present');
    this.data.copyWithin(at, at + 1, this.length);
    this.length -= 1;
  }

  countBelow(x: number): number {
    return lowerBound(this.view(), x);
  }

  private view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** One population (protocol + window): each member's goodness per key and the sorted values. */
interface Population {
  members: Map<string, Float64Array>;
  sorted: SortedValues[];
}

/**
 * Rankings kept up to date one trader at a time: each population holds its members' values in
 * sorted arrays, so replacing one trader's record costs two binary searches and two memory
 * moves per key, and anyone's percentile is a binary search away. (A full recompute ranks with a
 * linear-time radix pass instead; both follow docs/semantics.md, a test checks they agree.)
 */
export class RankingIndex {
  private readonly populations = new Map<string, Population>();

  /** Sets (or, with null, removes) a member's values in its population. */
  set(protocol: string, window: string, account: string, values: RankingInput | null): void {
    const population = this.population(`${protocol}|${window}`);
    const old = population.members.get(account);
    if (old) {
      RANKING_KEYS.forEach((_, k) => (population.sorted[k] as SortedValues).remove(old[k] as number));
      population.members.delete(account);
    }
    if (values === null) return;
    const fresh = goodnessOf(values);
    RANKING_KEYS.forEach((_, k) => (population.sorted[k] as SortedValues).insert(fresh[k] as number));
    population.members.set(account, fresh);
  }

  /** The member's percentiles now (100 × strictly worse / (N − 1), 100 when alone), or null. */
  rankingOf(protocol: string, window: string, account: string): FullRanking | null {
    const population = this.populations.get(`${protocol}|${window}`);
    const mine = population?.members.get(account);
    if (!population || !mine) return null;
    const n = population.members.size;
    const ranking = {} as Record<RankingKey, number>;
    RANKING_KEYS.forEach((key, k) => {
      const below = (population.sorted[k] as SortedValues).countBelow(mine[k] as number);
      ranking[key] = percentile(below, n);
    });
    return ranking as FullRanking;
  }

  /** Members of a population. */
  size(protocol: string, window: string): number {
    return this.populations.get(`${protocol}|${window}`)?.members.size ?? 0;
  }

  private population(key: string): Population {
    let found = this.populations.get(key);
    if (!found) {
      found = { members: new Map(), sorted: RANKING_KEYS.map(() => new SortedValues()) };
      this.populations.set(key, found);
    }
    return found;
  }
}

function goodnessOf(values: RankingInput): Float64Array {
  const out = new Float64Array(RANKING_KEYS.length);
  RANKING_KEYS.forEach((key, k) => (out[k] = goodness(values[key], RANKING_DIRECTION[key])));
  return out;
}
