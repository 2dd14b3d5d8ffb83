/**
 * What a population holds that it can make again: a column its source can give back, or a
 * sorted permutation. The population releases it when the budget asks.
 */
export interface Releasable {
  release(what: HeldPart): void;
}

/** One part a population holds under a budget. */
export interface HeldPart {
  readonly field: string;
  readonly what: 'column' | 'order';
  readonly bytes: number;
  /** The query during which it was last used: parts used by the running query are not released. */
  query: number;
  /** Its population, weakly: a budget must not keep a population another generation replaced. */
  readonly owner: WeakRef<Releasable>;
}

/**
 * A bound on the bytes the populations of one index hold of what they can make again (columns
 * made on demand and permutations; docs/statistics.md, "The budget of columns held"). Parts are
 * released least recently used first, never one used by the running query: a query begins with
 * `beginQuery`, and every part it uses is marked with it, so a search never loses a column it is
 * reading (a later query, or a later read, asks the population's source for it again, exactly).
 * Parts of populations the garbage collector took are forgotten with them.
 */
export class ColumnBudget {
  /** Bytes held now, by the parts this budget knows of. */
  heldBytes = 0;
  /** Parts released since start (tests and the bench read it). */
  released = 0;
  private query = 1;
  /** Every part held, least recently used first (a part used is moved to the end). */
  private readonly parts = new Set<HeldPart>();
  private readonly collected = new FinalizationRegistry<Set<HeldPart>>((parts) => {
    for (const part of parts) this.forget(part);
  });

  constructor(public limitBytes: number) {}

  /** A query begins: what earlier queries used may be released, down to the limit. */
  beginQuery(): void {
    this.query += 1;
    this.settle();
  }

  /** A population's parts, to be forgotten when the population is collected. */
  watch(population: Releasable, parts: Set<HeldPart>): void {
    this.collected.register(population, parts);
  }

  /** A part just made or read: counted, marked used by the running query, then the limit kept. */
  hold(owner: Releasable, field: string, what: HeldPart['what'], bytes: number): HeldPart {
    const part: HeldPart = { field, what, bytes, query: this.query, owner: new WeakRef(owner) };
    this.parts.add(part);
    this.heldBytes += bytes;
    this.settle();
    return part;
  }

  /** A part used: it is the most recently used, and kept to the end of the running query. */
  use(part: HeldPart): void {
    if (part.query === this.query) return;
    part.query = this.query;
    this.parts.delete(part);
    this.parts.add(part);
  }

  /** A part its population no longer holds (released, or the population collected). */
  forget(part: HeldPart): void {
    if (this.parts.delete(part)) this.heldBytes -= part.bytes;
  }

  /** Releases the least recently used parts, none of the running query's, until within the limit. */
  private settle(): void {
    for (const part of this.parts) {
      if (this.heldBytes <= this.limitBytes || part.query === this.query) return;
      this.forget(part);
      this.released += 1;
      part.owner.deref()?.release(part);
    }
  }
}
