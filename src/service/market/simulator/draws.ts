// Random draws and cheap hashes the simulator builds on. Everything derives from SeededRandom, so a
// seed gives the same numbers on every machine.
import { SeededRandom } from '../../fixture/random';

/** A standard normal draw (Box–Muller; 1 − u keeps the logarithm finite). */
export function normal(random: SeededRandom): number {
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A log-normal draw with the given median and log-space spread. */
export const logNormal = (random: SeededRandom, median: number, sigma: number): number =>
  median * Math.exp(sigma * normal(random));

/** An exponential draw with the given mean (waiting times between independent events). */
export const exponential = (random: SeededRandom, mean: number): number =>
  -mean * Math.log(1 - random.next());

/** A number clamped into [min, max]. */
export const clamp = (x: number, min: number, max: number): number => Math.min(max, Math.max(min, x));

/** An index drawn with probability proportional to its weight (weights ≥ 0, not all 0). */
export function weightedIndex(random: SeededRandom, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = random.next() * total;
  for (let i = 0; i < weights.length; i += 1) {
    x -= weights[i] as number;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** A 32-bit avalanche mix of two integers (murmur3's finaliser over a combined word). */
export function mix32(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be59b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a), to seed per-name streams. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** An independent generator for one named part of a seeded world. */
export const substream = (seed: number, part: number): SeededRandom => new SeededRandom(mix32(seed, part));

/** Two hex digits per byte value, so a 32-bit word becomes text with four lookups. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** The 8 hex digits of a 32-bit word. */
export const wordHex = (w: number): string =>
  (BYTE_HEX[w >>> 24] as string) +
  (BYTE_HEX[(w >>> 16) & 255] as string) +
  (BYTE_HEX[(w >>> 8) & 255] as string) +
  (BYTE_HEX[w & 255] as string);

/**
 * `words` hex words (8 digits each) derived from three integers, for hashes and keys. Hashing
 * beats drawing random bytes by an order of magnitude, which matters for the hundreds of
 * thousands of orders of the demo world.
 */
export function hexWords(a: number, b: number, c: number, words: number): string {
  let out = '';
  let h = mix32(a, mix32(b, c));
  for (let lane = 0; lane < words; lane += 1) {
    h = mix32(h, lane);
    out += wordHex(h);
  }
  return out;
}

/** A 0x-prefixed 32-byte hex string (a transaction hash or position key) from three integers. */
export const hex32 = (a: number, b: number, c: number): string => `0x${hexWords(a, b, c, 8)}`;
