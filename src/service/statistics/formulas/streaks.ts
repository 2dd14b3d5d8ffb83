// Win and lose streaks of a window's closed positions (docs/statistics.md, "Streaks").
//
// A streak depends on the ORDER of the positions: by close time, ties by id. The statistics pass
// feeds positions in the order the store reads them (both readers order by close time, then id:
// statistics/index/load-columns.ts and statistics/compute/facts.ts), so the runs are counted in that same pass.
// Input in another order (a test's array, generated bench columns) is detected by `CloseOrder`,
// and the scan then replays the closes in sorted order (statistics.ts).

/** Running streaks of one window: the current run and the longest of each kind. */
export class StreakCounter {
  winStreak = 0;
  loseStreak = 0;
  maxWinStreak = 0;
  maxLoseStreak = 0;

  /** Feeds the next closed position in close order; a non-win (isWin false) extends a losing run. */
  add(isWin: boolean): void {
    if (isWin) {
      this.winStreak += 1;
      this.loseStreak = 0;
      if (this.winStreak > this.maxWinStreak) this.maxWinStreak = this.winStreak;
    } else {
      this.loseStreak += 1;
      this.winStreak = 0;
      if (this.loseStreak > this.maxLoseStreak) this.maxLoseStreak = this.loseStreak;
    }
  }

  reset(): void {
    this.winStreak = 0;
    this.loseStreak = 0;
    this.maxWinStreak = 0;
    this.maxLoseStreak = 0;
  }
}

/** Whether closes arrive ordered by (close time, id); the first close out of order clears it. */
export class CloseOrder {
  ordered = true;
  /** Closes seen. */
  count = 0;
  private lastMs = -Infinity;
  private lastId = '';

  see(closeTimeMs: number, id: string): void {
    this.count += 1;
    if (!this.ordered) return;
    if (closeTimeMs < this.lastMs || (closeTimeMs === this.lastMs && id < this.lastId)) {
      this.ordered = false;
      return;
    }
    this.lastMs = closeTimeMs;
    this.lastId = id;
  }
}

/** One closed position as a streak replay needs it. */
export interface CloseEvent {
  closeTimeMs: number;
  id: string;
  isWin: boolean;
}

/** Sorts closes by (close time, id); a stable sort keeps the input order of exact ties. */
export function sortCloses(events: CloseEvent[]): CloseEvent[] {
  return events.sort((a, b) =>
    a.closeTimeMs !== b.closeTimeMs ? a.closeTimeMs - b.closeTimeMs : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}
