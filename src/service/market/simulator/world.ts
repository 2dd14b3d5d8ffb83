// The deterministic world of the demo: price paths for every symbol and a population of traders
// with their styles, from a seed and a time. `forEachPosition` plays every trader's history.
import { getAddress } from 'viem';
import { indexTokenAddress, protocolCatalogue } from '../catalogue';
import { hashString, mix32, substream } from './draws';
import { SYMBOL_DYNAMICS, takerFeeOf } from './parameters';
import { buildPricePaths, type PricePath } from './prices';
import { drawHumanKind, drawStyle, type TraderKind, type TraderStyle } from './styles';
import { simulateTrader, type PositionSink } from './trader';
import type { SeededRandom } from '../../fixture/random';

const DAY_MS = 86_400_000;
/** One trader in BOT_EVERY is a bot (indices 7, 507, 1007, …): 10 bots in 5,000 traders. */
const BOT_EVERY = 500;
const BOT_OFFSET = 7;

/** A token as one protocol lists it. */
export interface MarketToken {
  protocol: string;
  symbol: string;
  indexToken: string;
  pair: string;
  maxLeverage: number;
}

/** One protocol's market: its tokens and its taker fee. */
export interface ProtocolMarket {
  protocol: string;
  tokens: MarketToken[];
  feeRate: number;
}

/** A trader of the world: who, how, where and when. */
export interface TraderPlan {
  index: number;
  account: string;
  style: TraderStyle;
  /** Protocols the trader uses and how often (weights). */
  protocols: { market: ProtocolMarket; weight: number }[];
  activeFromMs: number;
  activeToMs: number;
}

/** What a world is made of. */
export interface World {
  seed: number;
  nowMs: number;
  startMs: number;
  paths: Map<string, PricePath>;
  markets: ProtocolMarket[];
  traders: TraderPlan[];
}

/** Options of a world: its seed, its end (now), its population and its length in days. */
export interface WorldOptions {
  seed: number;
  nowMs: number;
  traders: number;
  days: number;
}

/** Every catalogue protocol with its tokens' index addresses (computed once: they cost a keccak). */
export function catalogueMarkets(): ProtocolMarket[] {
  return Object.entries(protocolCatalogue).map(([protocol, tokens]) => ({
    protocol,
    feeRate: takerFeeOf(protocol),
    tokens: tokens.map((t) => ({
      protocol,
      symbol: t.symbol,
      indexToken: indexTokenAddress(protocol, t.symbol),
      pair: `${t.symbol}/USD`,
      maxLeverage: t.maxLeverage,
    })),
  }));
}

/** Builds the world: paths over `days` days before `nowMs`, then the traders' plans. */
export function buildWorld(options: WorldOptions): World {
  const startMs = options.nowMs - options.days * DAY_MS;
  const symbols = Object.keys(SYMBOL_DYNAMICS).sort();
  const paths = buildPricePaths(options.seed, symbols, options.nowMs, options.days);
  const markets = catalogueMarkets();
  const traders = Array.from({ length: options.traders }, (_, i) =>
    planTrader(options.seed, i, markets, startMs, options.nowMs),
  );
  return { seed: options.seed, nowMs: options.nowMs, startMs, paths, markets, traders };
}

/** Whether trader `index` is one of the world's bots. */
export const isBotIndex = (index: number): boolean => index % BOT_EVERY === BOT_OFFSET;

/** Draws trader `index`'s account, style, protocols and active span from its own stream. */
function planTrader(
  seed: number,
  index: number,
  markets: ProtocolMarket[],
  startMs: number,
  nowMs: number,
): TraderPlan {
  const random = substream(mix32(seed, hashString('traders')), index);
  const account = getAddress(`0x${random.hex(20)}`);
  const kind: TraderKind = isBotIndex(index) ? 'bot' : drawHumanKind(random);
  const style = drawStyle(random, kind);
  const protocols = drawProtocols(random, index, markets, kind);
  const [activeFromMs, activeToMs] = drawActiveSpan(random, kind, startMs, nowMs);
  return { index, account, style, protocols, activeFromMs, activeToMs };
}

/**
 * A main protocol (round-robin, so even a small world covers all eight) and, for some traders,
 * one to three more that they use less often. Bots run on one venue.
 */
function drawProtocols(
  random: SeededRandom,
  index: number,
  markets: ProtocolMarket[],
  kind: TraderKind,
): TraderPlan['protocols'] {
  const main = markets[index % markets.length] as ProtocolMarket;
  const chosen = [{ market: main, weight: 1 }];
  const extra = kind === 'bot' ? 0 : random.chance(0.3) ? random.int(1, 3) : 0;
  for (let i = 0; i < extra; i += 1) {
    const market = random.pick(markets);
    if (!chosen.some((c) => c.market === market)) chosen.push({ market, weight: random.between(0.2, 0.6) });
  }
  return chosen;
}

/** When the trader trades: bots always; people join over time and some stop before now. */
function drawActiveSpan(
  random: SeededRandom,
  kind: TraderKind,
  startMs: number,
  nowMs: number,
): [number, number] {
  if (kind === 'bot') return [startMs, nowMs];
  const span = nowMs - startMs;
  const from = random.chance(0.3) ? startMs : startMs + random.between(0, 0.85) * span;
  const to = random.chance(0.75) ? nowMs : from + random.between(0.2, 1) * (nowMs - from);
  return [from, to];
}

/** Plays every trader's history in trader order, handing each position to `sink`; replayable. */
export function forEachPosition(
  world: World,
  sink: PositionSink,
  onTrader?: (done: number, total: number) => void,
): void {
  world.traders.forEach((plan, i) => {
    simulateTrader(world, plan, sink);
    onTrader?.(i + 1, world.traders.length);
  });
}
