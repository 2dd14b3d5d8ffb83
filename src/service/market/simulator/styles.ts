// Traders' persistent styles: what kind of trader, how skilled, how levered, how long they hold,
// which tokens and which side they prefer, and how they manage a position. A style is drawn once
// per trader, so their statistics differ the way real traders' do.
import type { SeededRandom } from '../../fixture/random';
import { clamp, logNormal, normal } from './draws';
import { SYMBOL_DYNAMICS } from './parameters';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The kinds of trader the world holds. */
export type TraderKind = 'bot' | 'scalper' | 'daytrader' | 'swing' | 'degen' | 'whale';

/** How a trader trades; fixed for the trader's life. */
export interface TraderStyle {
  kind: TraderKind;
  /** Share of entries that side with the coming move (negative: against it). */
  skill: number;
  /** Probability of going long when not trading on skill. */
  longBias: number;
  /** Habitual leverage (median of a log-normal per position). */
  leverage: number;
  /** Habitual collateral in USD (median). */
  collateral: number;
  /** Median holding time. */
  holdMs: number;
  /** New positions per active day. */
  tradesPerDay: number;
  /** Preference weight per symbol (only symbols the chosen protocol lists are drawn). */
  symbolWeights: Readonly<Record<string, number>>;
  /** Loss on collateral at which they cut (0.3 = −30 % ROI), or null: they ride it. */
  stopLoss: number | null;
  /** Gain on collateral at which they take profit, or null. */
  takeProfit: number | null;
  /** Probability that a position is scaled into (INCREASE orders). */
  scaleIn: number;
  /** Probability that a position is partly closed before its end (DECREASE orders). */
  partialExit: number;
  /** Probability of adding margin when the price closes in on the liquidation price. */
  topUp: number;
}

interface KindProfile {
  holdMs: number;
  tradesPerDay: number;
  leverage: number;
  collateral: number;
  stopLoss: [chance: number, min: number, max: number];
  takeProfit: [chance: number, min: number, max: number];
  scaleIn: number;
  partialExit: number;
  topUp: number;
}

/** Medians and habits per kind (docs/simulator.md, Styles). */
const PROFILES: Readonly<Record<TraderKind, KindProfile>> = {
  bot: {
    holdMs: 12 * MINUTE_MS,
    tradesPerDay: 36,
    leverage: 5,
    collateral: 60,
    stopLoss: [1, 0.08, 0.15],
    takeProfit: [1, 0.05, 0.12],
    scaleIn: 0.03,
    partialExit: 0.03,
    topUp: 0,
  },
  scalper: {
    holdMs: 40 * MINUTE_MS,
    tradesPerDay: 0.6,
    leverage: 20,
    collateral: 800,
    stopLoss: [0.8, 0.15, 0.35],
    takeProfit: [0.8, 0.2, 0.6],
    scaleIn: 0.15,
    partialExit: 0.2,
    topUp: 0.05,
  },
  daytrader: {
    holdMs: 6 * HOUR_MS,
    tradesPerDay: 0.25,
    leverage: 10,
    collateral: 2_000,
    stopLoss: [0.6, 0.3, 0.6],
    takeProfit: [0.5, 0.4, 1.5],
    scaleIn: 0.25,
    partialExit: 0.3,
    topUp: 0.2,
  },
  swing: {
    holdMs: 3 * DAY_MS,
    tradesPerDay: 0.1,
    leverage: 4,
    collateral: 5_000,
    stopLoss: [0.7, 0.25, 0.5],
    takeProfit: [0.6, 0.5, 2],
    scaleIn: 0.35,
    partialExit: 0.4,
    topUp: 0.3,
  },
  degen: {
    holdMs: 10 * HOUR_MS,
    tradesPerDay: 0.25,
    leverage: 35,
    collateral: 500,
    stopLoss: [0.1, 0.5, 0.7],
    takeProfit: [0.4, 1, 3],
    scaleIn: 0.3,
    partialExit: 0.1,
    topUp: 0.4,
  },
  whale: {
    holdMs: 36 * HOUR_MS,
    tradesPerDay: 0.1,
    leverage: 4,
    collateral: 80_000,
    stopLoss: [0.5, 0.2, 0.4],
    takeProfit: [0.3, 0.3, 1],
    scaleIn: 0.4,
    partialExit: 0.5,
    topUp: 0.5,
  },
};

/** Shares of the human kinds (bots are placed by the world, not drawn). */
const HUMAN_KINDS: readonly [TraderKind, number][] = [
  ['scalper', 0.2],
  ['daytrader', 0.35],
  ['swing', 0.28],
  ['degen', 0.12],
  ['whale', 0.05],
];

/** A human kind drawn by its share. */
export function drawHumanKind(random: SeededRandom): TraderKind {
  let x = random.next();
  for (const [kind, share] of HUMAN_KINDS) {
    x -= share;
    if (x < 0) return kind;
  }
  return 'daytrader';
}

/** A skill: most traders are near zero, a few sharks are well above, some are reliably wrong. */
function drawSkill(random: SeededRandom, kind: TraderKind): number {
  if (kind === 'bot') return random.between(0.05, 0.2);
  if (random.chance(0.03)) return random.between(0.35, 0.7);
  return clamp(0.03 + 0.12 * normal(random), -0.3, 0.6);
}

/** An optional threshold: present with the profile's chance, uniform in its range. */
function drawThreshold(random: SeededRandom, [chance, min, max]: KindProfile['stopLoss']): number | null {
  return random.chance(chance) ? random.between(min, max) : null;
}

/** Majors are traded most; a trader adds one or two favourites of their own. */
function drawSymbolWeights(random: SeededRandom, kind: TraderKind): Record<string, number> {
  const symbols = Object.keys(SYMBOL_DYNAMICS);
  const base: Record<string, number> = { BTC: 3, ETH: 2.5, SOL: 1.5 };
  const weights: Record<string, number> = {};
  for (const s of symbols) {
    const popular = base[s] ?? (SYMBOL_DYNAMICS[s]?.correlation === 0 ? 0.3 : 0.6);
    // Bots stick to their favourites; people also dabble.
    weights[s] = kind === 'bot' ? 0.01 : popular * logNormal(random, 1, 0.8);
  }
  const favourites = random.int(1, 2);
  for (let i = 0; i < favourites; i += 1) {
    const s = random.pick(symbols);
    weights[s] = (weights[s] ?? 0) + (kind === 'bot' ? 1 : 6);
  }
  return weights;
}

/** A trader's style of the given kind; per-trader medians scatter around the kind's. */
export function drawStyle(random: SeededRandom, kind: TraderKind): TraderStyle {
  const p = PROFILES[kind];
  return {
    kind,
    skill: drawSkill(random, kind),
    longBias: clamp(0.58 + 0.12 * normal(random), 0.2, 0.9),
    leverage: clamp(logNormal(random, p.leverage, 0.4), 1.2, 100),
    collateral: logNormal(random, p.collateral, 0.7),
    holdMs: logNormal(random, p.holdMs, 0.5),
    tradesPerDay: logNormal(random, p.tradesPerDay, kind === 'bot' ? 0.2 : 0.5),
    symbolWeights: drawSymbolWeights(random, kind),
    stopLoss: drawThreshold(random, p.stopLoss),
    takeProfit: drawThreshold(random, p.takeProfit),
    scaleIn: p.scaleIn,
    partialExit: p.partialExit,
    topUp: p.topUp,
  };
}
