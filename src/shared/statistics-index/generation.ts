import { noBytes, type IndexBytes, type Population } from './population';

/**
 * One generation of the index: every population by key (`protocol|window`). Immutable: a change
 * makes a new generation that shares the populations it did not touch, so a reader holding a
 * generation (a search-after's point in time) keeps reading exactly what it saw.
 */
export class IndexGeneration {
  constructor(private readonly populations: ReadonlyMap<string, Population> = new Map()) {}

  /** The population of `key`, if it has records. */
  get(key: string): Population | undefined {
    return this.populations.get(key);
  }

  /**
   * Every population, in key order (a stable order for merging). Listed once: a generation never
   * changes, and sorting its keys on every search showed in a GraphQL miss's profile.
   */
  all(): readonly Population[] {
    this.listed ??= [...this.populations.keys()].sort().map((key) => this.populations.get(key) as Population);
    return this.listed;
  }
  private listed: readonly Population[] | undefined;

  /** Populations whose key passes `keep`, in key order. */
  where(keep: (key: string) => boolean): Population[] {
    return this.all().filter((p) => keep(p.key));
  }

  /** A generation with `replaced` populations swapped in (null removes one). */
  with(replaced: ReadonlyMap<string, Population | null>): IndexGeneration {
    const next = new Map(this.populations);
    for (const [key, population] of replaced) {
      if (population) next.set(key, population);
      else next.delete(key);
    }
    return new IndexGeneration(next);
  }

  /** Records in all populations. */
  get size(): number {
    let total = 0;
    for (const p of this.populations.values()) total += p.size;
    return total;
  }

  /** Bytes held by all populations, by what holds them (see Population.bytesByKind). */
  bytesByKind(): IndexBytes {
    const into = noBytes();
    for (const p of this.populations.values()) p.bytesByKind(into);
    return into;
  }

  /** Bytes held by all populations (see Population.bytes). */
  bytes(): number {
    let total = 0;
    for (const p of this.populations.values()) total += p.bytes();
    return total;
  }
}
