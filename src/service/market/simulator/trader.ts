// One trader's history: positions one after another, each run along its token's price path with
// the trader's habits (scale-ins, partial exits, margin top-ups, stops) and the market's
// liquidation price. Deterministic: everything is drawn from the trader's own stream.
import type { SeededRandom } from '../../fixture/random';
import type { OrderRow } from '../../store/positions';
import { clamp, exponential, hashString, hex32, logNormal, mix32, substream, weightedIndex } from './draws';
import { MAINTENANCE, STEP_MS } from './parameters';
import { SimPosition, cents, type OrderStamper, type PositionIdentity } from './position-book';
import type { PricePath } from './prices';
import type { TraderStyle } from './styles';
import type { MarketToken, ProtocolMarket, TraderPlan, World } from './world';

const DAY_MS = 86_400_000;

/** Receives each finished (or still open at now) position with its orders in time order. */
export type PositionSink = (position: SimPosition, orders: OrderRow[]) => void;

/** The trader's pick for one position. */
interface Entry {
  market: ProtocolMarket;
  token: MarketToken;
  path: PricePath;
  isLong: boolean;
  leverage: number;
  collateral: number;
  openMs: number;
  holdMs: number;
}

/** A planned change during a position's life. */
interface PlannedEvent {
  timeMs: number;
  kind: 'increase' | 'decrease' | 'end';
}

/** A price level whose crossing ends or changes the position. */
type TriggerKind = 'liquidation' | 'stopLoss' | 'topUp' | 'takeProfit';

/** Plays trader `plan`'s positions from their first day until they stop or one is open at now. */
export function simulateTrader(world: World, plan: TraderPlan, sink: PositionSink): void {
  const random = substream(mix32(world.seed, hashString('trades')), plan.index);
  const style = plan.style;
  const gapMs = Math.max(STEP_MS, DAY_MS / style.tradesPerDay - style.holdMs);
  // The first trade falls inside the active span, so every trader of the world has a position.
  const span = Math.min(plan.activeToMs, world.nowMs - STEP_MS) - plan.activeFromMs;
  let t = plan.activeFromMs + Math.min(exponential(random, gapMs), random.next() * span);
  for (let n = 0; t < Math.min(plan.activeToMs, world.nowMs - STEP_MS); n += 1) {
    const entry = chooseEntry(random, world, plan, roundSecond(t));
    const position = newPosition(world, plan, entry, n);
    const orders = runPosition(random, position, entry, style, world.nowMs);
    sink(position, orders);
    if (position.closeTimeMs === null) return;
    t = position.closeTimeMs + exponential(random, gapMs);
  }
}

const roundSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;

/** Protocol, token, side, leverage, size and holding time of the next position. */
function chooseEntry(random: SeededRandom, world: World, plan: TraderPlan, openMs: number): Entry {
  const style = plan.style;
  const market = chooseProtocol(random, plan);
  const token = chooseToken(random, style, market);
  const path = world.paths.get(token.symbol) as PricePath;
  const holdMs = Math.max(STEP_MS, logNormal(random, style.holdMs, 0.6));
  const isLong = chooseSide(random, style, path, openMs, holdMs);
  return { market, token, path, isLong, ...chooseSize(random, style, token), openMs, holdMs };
}

/** One of the trader's protocols, by how often they use it. */
function chooseProtocol(random: SeededRandom, plan: TraderPlan): ProtocolMarket {
  const weights = plan.protocols.map((p) => p.weight);
  const chosen = plan.protocols[weightedIndex(random, weights)];
  if (!chosen) throw new Error(`trader ${plan.index} has no protocol`);
  return chosen.market;
}

/** A token of the protocol, by the trader's preferences. */
export function chooseToken(random: SeededRandom, style: TraderStyle, market: ProtocolMarket): MarketToken {
  const weights = market.tokens.map((t) => style.symbolWeights[t.symbol] ?? 0.1);
  return market.tokens[weightedIndex(random, weights)] as MarketToken;
}

/** Leverage (0.1 steps, within the venue's maximum) and collateral around the trader's habits. */
export function chooseSize(
  random: SeededRandom,
  style: TraderStyle,
  token: MarketToken,
): { leverage: number; collateral: number } {
  return {
    leverage: Math.round(clamp(logNormal(random, style.leverage, 0.25), 1.1, token.maxLeverage) * 10) / 10,
    collateral: cents(Math.max(10, logNormal(random, style.collateral, 0.4))),
  };
}

/**
 * Skill tilts the entry with the coming move: with probability |skill| the trader takes the side
 * the price will actually move to by the planned exit (the wrong one when skill is negative);
 * otherwise the side follows the trader's long bias.
 */
function chooseSide(
  random: SeededRandom,
  style: TraderStyle,
  path: PricePath,
  openMs: number,
  holdMs: number,
): boolean {
  if (!random.chance(Math.abs(style.skill))) return random.chance(style.longBias);
  const rises = path.priceAt(openMs + holdMs) >= path.priceAt(openMs);
  return style.skill > 0 ? rises : !rises;
}

/** The position object with its identity, fee and funding, and the world's order stamps. */
function newPosition(world: World, plan: TraderPlan, entry: Entry, n: number): SimPosition {
  const id = `P${pad36(plan.index, 4)}${pad36(n, 4)}`;
  const identity: PositionIdentity = {
    id,
    account: plan.account,
    protocol: entry.market.protocol,
    symbol: entry.token.symbol,
    indexToken: entry.token.indexToken,
    pair: entry.token.pair,
    isLong: entry.isLong,
  };
  const traderHash = mix32(world.seed, plan.index);
  const stamp: OrderStamper = (_p, seq) => ({
    id: `${id}-${pad36(seq, 2)}`,
    txHash: hex32(traderHash, n, seq),
    logId: (mix32(n, seq) % 400) + 1,
  });
  return new SimPosition(identity, entry.market.feeRate, (t) => entry.path.fundingAt(t), stamp);
}

/** Zero-padded base-36, so ids sort in the order they were made. */
export const pad36 = (n: number, width: number): string => n.toString(36).padStart(width, '0');

/** Opens the position, plays its planned events and triggers, and returns its orders. */
function runPosition(
  random: SeededRandom,
  position: SimPosition,
  entry: Entry,
  style: TraderStyle,
  nowMs: number,
): OrderRow[] {
  const path = entry.path;
  const orders = [
    position.open(
      entry.openMs,
      path.priceAt(entry.openMs),
      entry.collateral * entry.leverage,
      entry.collateral,
    ),
  ];
  const life: Life = { cursor: entry.openMs, canTopUp: random.chance(style.topUp) };
  for (const event of plannedEvents(random, style, entry.openMs, entry.openMs + entry.holdMs)) {
    const until = Math.min(event.timeMs, nowMs);
    if (playTriggers(random, position, path, style, life, until, orders)) return orders;
    if (event.timeMs > nowMs) return orders; // still open at the end of the world
    life.cursor = event.timeMs;
    const order = applyEvent(random, position, entry, event);
    if (order) orders.push(order);
  }
  return orders;
}

/** Where a position's life has got to: the last time played and whether a top-up is still to come. */
interface Life {
  cursor: number;
  canTopUp: boolean;
}

/**
 * Plays the levels the price crosses up to `until`: a top-up adds margin and play goes on; a
 * liquidation, stop loss or take profit ends the position (returns true).
 */
function playTriggers(
  random: SeededRandom,
  position: SimPosition,
  path: PricePath,
  style: TraderStyle,
  life: Life,
  until: number,
  orders: OrderRow[],
): boolean {
  for (;;) {
    const trigger = firstTrigger(position, path, style, life.canTopUp, life.cursor, until);
    if (!trigger) return false;
    if (trigger.kind !== 'topUp') {
      orders.push(endByTrigger(position, path, trigger));
      return true;
    }
    const price = path.priceAt(trigger.timeMs);
    orders.push(position.addMargin(trigger.timeMs, price, topUpAmount(random, position)));
    life.canTopUp = false;
    life.cursor = trigger.timeMs;
  }
}

/** Scale-ins in the first part of the holding time, partial exits later, then the planned end. */
function plannedEvents(
  random: SeededRandom,
  style: TraderStyle,
  openMs: number,
  endMs: number,
): PlannedEvent[] {
  const hold = endMs - openMs;
  const events: PlannedEvent[] = [];
  const at = (lo: number, hi: number) => roundSecond(openMs + hold * random.between(lo, hi));
  if (random.chance(style.scaleIn))
    for (let i = random.int(1, 2); i > 0; i -= 1) events.push({ timeMs: at(0.1, 0.7), kind: 'increase' });
  if (random.chance(style.partialExit))
    for (let i = random.int(1, 2); i > 0; i -= 1) events.push({ timeMs: at(0.3, 0.95), kind: 'decrease' });
  events.sort((a, b) => a.timeMs - b.timeMs);
  // The end comes last even when rounding puts an event on the same second.
  events.push({
    timeMs: Math.max(roundSecond(endMs), events.at(-1)?.timeMs ?? openMs, openMs + 1000),
    kind: 'end',
  });
  return events;
}

/** The earliest level crossed in (cursor, until]; a liquidation wins a tie (it fills first). */
function firstTrigger(
  position: SimPosition,
  path: PricePath,
  style: TraderStyle,
  canTopUp: boolean,
  cursor: number,
  until: number,
): { kind: TriggerKind; timeMs: number } | null {
  const from = path.indexAt(cursor) + 1;
  const to = path.indexAt(until);
  if (from > to) return null;
  const levels: [TriggerKind, number | null, boolean][] = [
    ['liquidation', position.liquidationPrice(), true],
    ['stopLoss', style.stopLoss === null ? null : position.priceAtRoi(-style.stopLoss), true],
    ['topUp', canTopUp ? position.priceAtRoi(-dangerRoi(position)) : null, true],
    ['takeProfit', style.takeProfit === null ? null : position.priceAtRoi(style.takeProfit), false],
  ];
  let best: { kind: TriggerKind; index: number } | null = null;
  for (const [kind, level, adverse] of levels) {
    if (level === null) continue;
    const index = crossing(
      path,
      position.identity.isLong === adverse,
      from,
      best ? best.index - 1 : to,
      level,
    );
    if (index >= 0 && (!best || index < best.index)) best = { kind, index };
  }
  return best && { kind: best.kind, timeMs: path.timeOf(best.index) };
}

/** First step at or below (`below`) or at or above the level. */
const crossing = (path: PricePath, below: boolean, from: number, to: number, level: number): number =>
  below ? path.firstAtOrBelow(from, to, level) : path.firstAtOrAbove(from, to, level);

/** Traders who top up do it 60 % of the way to their liquidation loss (1 − maintenance × leverage). */
const dangerRoi = (position: SimPosition): number => 0.6 * (1 - MAINTENANCE * position.currentLeverage);

/** Margin added in a top-up: 30–100 % of the collateral. */
const topUpAmount = (random: SeededRandom, position: SimPosition): number =>
  cents(position.collateral * random.between(0.3, 1));

/** The order that ends the position when a level is crossed. */
function endByTrigger(
  position: SimPosition,
  path: PricePath,
  trigger: { kind: TriggerKind; timeMs: number },
): OrderRow {
  if (trigger.kind === 'liquidation') return position.liquidate(trigger.timeMs);
  // Stops are market orders: they fill at the minute's price, past the level.
  return position.close(trigger.timeMs, path.priceAt(trigger.timeMs));
}

/** A planned increase, decrease or end; an increase that would overreach is skipped. */
function applyEvent(
  random: SeededRandom,
  position: SimPosition,
  entry: Entry,
  event: PlannedEvent,
): OrderRow | null {
  const price = entry.path.priceAt(event.timeMs);
  if (event.kind === 'end') return position.close(event.timeMs, price);
  if (event.kind === 'decrease') return position.decrease(event.timeMs, price, random.between(0.25, 0.6));
  const plan = planIncrease(random, position, price, entry.token.maxLeverage);
  return plan && position.increase(event.timeMs, price, plan.sizeUsd, plan.collateral);
}

/**
 * The size and collateral of a scale-in at `price`, or null when the trader would not add:
 * nobody adds to a position deep in loss, which also keeps the new liquidation price behind the
 * mark. The collateral keeps the leverage (60 %) or stays (the leverage rises), never past the
 * venue's maximum.
 */
export function planIncrease(
  random: SeededRandom,
  position: SimPosition,
  price: number,
  maxLeverage: number,
): { sizeUsd: number; collateral: number } | null {
  if (position.unrealisedAt(price) < -0.3 * position.collateral) return null;
  const sizeUsd = position.notional * random.between(0.3, 1);
  const wanted = random.chance(0.6) ? sizeUsd / position.currentLeverage : 0;
  const needed = (position.notional + sizeUsd) / maxLeverage - position.collateral;
  // Rounded up to the cent, so that rounding never pushes the leverage past the maximum.
  return { sizeUsd, collateral: Math.ceil(Math.max(wanted, needed, 0) * 100) / 100 };
}
