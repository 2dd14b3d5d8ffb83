// Sharpe and Sortino ratios of a window's per-position returns (docs/statistics.md, "Risk-adjusted
// return"): r is each closed position's ROI (or realised ROI), in percent.
//   sharpe  = mean(r) / s,  s = sample standard deviation (n − 1)
//   sortino = mean(r) / d,  d = sqrt(Σ min(r, 0)² / n)
// Both are null with fewer than two positions or a deviation of 0. No annualisation and no
// risk-free rate: positions have no common period to scale by.

/**
 * Running moments of a stream of returns, by Welford's method: the mean and the sum of squared
 * deviations are updated per value, so equal returns give a deviation of exactly 0 (no spread),
 * and large returns do not lose the spread to cancellation as Σr² − n·mean² would.
 */
/** Returns smaller than this (in percent) count as 0. */
const TINY_RETURN = 1e-12;

export class ReturnMoments {
  n = 0;
  mean = 0;
  /** Σ (r − mean)². */
  m2 = 0;
  /** Σ min(r, 0)². */
  downside2 = 0;

  add(raw: number): void {
    // A return under 1e-12 % is none. Below ~1e-154 its squared deviation underflows into
    // subnormals, and the ratio then depends on the order the positions come in (found by the
    // order-independence property test on extreme doubles).
    const r = Math.abs(raw) < TINY_RETURN ? 0 : raw;
    this.n += 1;
    const delta = r - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (r - this.mean);
    if (r < 0) this.downside2 += r * r;
  }
}

/** mean / deviation, or null when there are fewer than two returns or the deviation is 0 (or not finite). */
function ratio(mean: number, deviation: number, n: number): number | null {
  if (n < 2 || !(deviation > 0) || !Number.isFinite(deviation)) return null;
  const q = mean / deviation;
  return Number.isFinite(q) ? q : null;
}

/** Mean over the sample standard deviation (n − 1). */
export const sharpeRatio = (m: ReturnMoments): number | null =>
  ratio(m.mean, Math.sqrt(m.m2 / (m.n - 1)), m.n);

/** Mean over the downside deviation sqrt(Σ min(r, 0)² / n); null when no return is negative. */
export const sortinoRatio = (m: ReturnMoments): number | null =>
  ratio(m.mean, Math.sqrt(m.downside2 / m.n), m.n);
