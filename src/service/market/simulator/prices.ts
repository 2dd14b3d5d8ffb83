// Price paths of the simulated market: one per symbol, one value per minute, shared by every
// protocol that lists the symbol (venues quote the same market). A path is a log random walk with
// a common crypto factor, per-symbol volatility and occasional jumps; funding is an hourly rate
// that wanders around a small positive mean.
import type { SeededRandom } from '../../fixture/random';
import { clamp, hashString, normal, substream } from './draws';
import { BLOCK_STEPS, HOUR_MS, STEP_MS, YEAR_MS, dynamicsOf, type SymbolDynamics } from './parameters';

const DAY_MS = 86_400_000;
/** Persistence of the hourly funding deviation (AR(1) coefficient). */
const FUNDING_PERSISTENCE = 0.95;

/** One symbol's minute-by-minute prices over a span, with hourly funding. */
export class PricePath {
  readonly blockMin: Float64Array;
  readonly blockMax: Float64Array;

  constructor(
    readonly symbol: string,
    readonly startMs: number,
    readonly values: Float64Array,
    /** Cumulative funding rate at each hour boundary: fundingIndex[h] = Σ rate of hours < h. */
    private readonly fundingIndex: Float64Array,
  ) {
    const blocks = Math.ceil(values.length / BLOCK_STEPS);
    this.blockMin = new Float64Array(blocks).fill(Infinity);
    this.blockMax = new Float64Array(blocks).fill(-Infinity);
    values.forEach((v, i) => {
      const b = Math.floor(i / BLOCK_STEPS);
      if (v < (this.blockMin[b] as number)) this.blockMin[b] = v;
      if (v > (this.blockMax[b] as number)) this.blockMax[b] = v;
    });
  }

  /** Time of the path's last value. */
  get endMs(): number {
    return this.timeOf(this.values.length - 1);
  }

  /** The last price of the path. */
  get lastPrice(): number {
    return this.values[this.values.length - 1] as number;
  }

  /** The step in force at `timeMs` (the latest step not after it), clamped to the path. */
  indexAt(timeMs: number): number {
    return clamp(Math.floor((timeMs - this.startMs) / STEP_MS), 0, this.values.length - 1);
  }

  /** The time of step `index`. */
  timeOf(index: number): number {
    return this.startMs + index * STEP_MS;
  }

  /** The price at `timeMs`. */
  priceAt(timeMs: number): number {
    return this.values[this.indexAt(timeMs)] as number;
  }

  /** The first step in [from, to] whose price is ≤ level (a long's stop), or −1. */
  firstAtOrBelow(from: number, to: number, level: number): number {
    return this.firstWhere(from, to, level, this.blockMin, (v) => v <= level);
  }

  /** The first step in [from, to] whose price is ≥ level (a short's stop), or −1. */
  firstAtOrAbove(from: number, to: number, level: number): number {
    return this.firstWhere(from, to, -level, this.blockMax, (v) => v >= level, -1);
  }

  /** Cumulative funding rate at `timeMs`, interpolated within the hour. */
  fundingAt(timeMs: number): number {
    const hours = clamp((timeMs - this.startMs) / HOUR_MS, 0, this.fundingIndex.length - 1);
    const h = Math.min(Math.floor(hours), this.fundingIndex.length - 2);
    const lo = this.fundingIndex[h] as number;
    const hi = this.fundingIndex[h + 1] as number;
    return lo + (hi - lo) * (hours - h);
  }

  /**
   * Linear scan that skips a whole block when its summary proves no step in it can match.
   * `sign` turns the max summary into a min one for the "at or above" search.
   */
  private firstWhere(
    from: number,
    to: number,
    signedLevel: number,
    summary: Float64Array,
    hit: (v: number) => boolean,
    sign = 1,
  ): number {
    const last = Math.min(to, this.values.length - 1);
    let i = Math.max(0, from);
    while (i <= last) {
      if (i % BLOCK_STEPS === 0 && i + BLOCK_STEPS - 1 <= last) {
        if (sign * (summary[i / BLOCK_STEPS] as number) > signedLevel) {
          i += BLOCK_STEPS;
          continue;
        }
      }
      if (hit(this.values[i] as number)) return i;
      i += 1;
    }
    return -1;
  }
}

/** The log return of one step: the symbol's share of the market shock, its own shock, a rare jump. */
export function stepReturn(
  random: SeededRandom,
  d: SymbolDynamics,
  marketShock: number,
  stepMs: number,
): number {
  const sigma = d.volatility * Math.sqrt(stepMs / YEAR_MS);
  const rho = d.correlation;
  const shock = rho * marketShock + Math.sqrt(1 - rho * rho) * normal(random);
  const jump = random.chance((d.jumpsPerDay * stepMs) / DAY_MS) ? d.jumpSize * normal(random) : 0;
  return sigma * shock - (sigma * sigma) / 2 + jump;
}

/** Hourly funding rates around the symbol's mean, occasionally negative. */
function fundingIndexOf(random: SeededRandom, d: SymbolDynamics, hours: number): Float64Array {
  const index = new Float64Array(hours + 1);
  let deviation = 0;
  for (let h = 0; h < hours; h += 1) {
    deviation = FUNDING_PERSISTENCE * deviation + d.fundingPerHour * 0.5 * normal(random);
    index[h + 1] = (index[h] as number) + d.fundingPerHour + deviation;
  }
  return index;
}

/** The shocks every crypto symbol shares, one per step. */
function marketShocks(seed: number, steps: number): Float64Array {
  const random = substream(seed, hashString('market'));
  const shocks = new Float64Array(steps);
  for (let i = 0; i < steps; i += 1) shocks[i] = normal(random);
  return shocks;
}

/** One symbol's path of `steps` minutes ending at `endMs`, starting at its start price. */
function buildPath(seed: number, symbol: string, endMs: number, shocks: Float64Array): PricePath {
  const d = dynamicsOf(symbol);
  const random = substream(seed, hashString(symbol));
  const steps = shocks.length;
  const values = new Float64Array(steps);
  let logPrice = Math.log(d.startPrice);
  for (let i = 0; i < steps; i += 1) {
    if (i > 0) logPrice += stepReturn(random, d, shocks[i] as number, STEP_MS);
    values[i] = Math.exp(logPrice);
  }
  const startMs = endMs - (steps - 1) * STEP_MS;
  const hours = Math.ceil(((steps - 1) * STEP_MS) / HOUR_MS) + 1;
  return new PricePath(symbol, startMs, values, fundingIndexOf(random, d, hours));
}

/** Minute paths of every symbol over the `days` days that end at `endMs`, keyed by symbol. */
export function buildPricePaths(
  seed: number,
  symbols: readonly string[],
  endMs: number,
  days: number,
): Map<string, PricePath> {
  const steps = Math.round((days * DAY_MS) / STEP_MS) + 1;
  const shocks = marketShocks(seed, steps);
  return new Map(symbols.map((s) => [s, buildPath(seed, s, endMs, shocks)]));
}
