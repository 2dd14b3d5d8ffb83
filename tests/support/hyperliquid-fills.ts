// Realistic Hyperliquid fills for the fake venue, generated from a seed: the same seed gives the same
// fills on every machine. Each account trades a few coins of the recorded universe, and each coin
// tells a consistent story, as the venue's own fills do: `startPosition` is the signed size before
// the fill, `dir` follows from it and the side, `closedPnl` is what the closing part realised against
// a size-weighted average entry (a decrease keeps the average), one order may fill against several
// makers in one millisecond (one hash, one oid). Sizes are kept as integers of 10^-szDecimals and
// only written as text, so `sz` and `startPosition` are exact decimals.
//
// Allocation-light on purpose: the feed's benchmark generates 1,000,000 fills, and nothing but the
// fill itself is allocated per fill.
import { SeededRandom } from '../../src/service/fixture/random';
import { recordedMeta, recordedMids, type LeaderboardRow, type VenueFill } from './fake-hyperliquid';

/** The fee the generated fills pay, a fraction of their notional (the venue's taker fee is of this order). */
export const FEE_RATE = 0.00035;

export interface GenerateFillsOptions {
  account: string;
  seed: number;
  count: number;
  /** Every fill's time is strictly between these two (exclusive): endMs − startMs must be ≥ 2. */
  startMs: number;
  endMs: number;
  /** Coins of the recorded meta to trade; default 1–4 of the first twelve, chosen by the seed. */
  coins?: string[];
  /** Today's shape, with `tid` and `feeToken: 'USDC'` (default); false gives the 2023 shape without them. */
  withTid?: boolean;
  /** The share of orders on an open position that flip it (`Long > Short`, `Short > Long`); default 0.05. */
  flipShare?: number;
}

/** One coin's market and the account's position in it. */
interface Book {
  coin: string;
  szDecimals: number;
  /** 10^szDecimals: size units per token. */
  scale: number;
  /** The most decimals a price may have (6 − szDecimals, the venue's rule). */
  priceDecimals: number;
  logPrice: number;
  logStart: number;
  /** The account's usual order size in units. */
  lot: number;
  /** The signed position in units. */
  units: number;
  average: number;
}

/** Fills of one account, oldest first; see the file's head for what holds between them. */
export function generateFills(options: GenerateFillsOptions): VenueFill[] {
  if (!(options.endMs - options.startMs >= 2)) throw new Error('generateFills needs endMs − startMs ≥ 2');
  return new AccountStory(options).run();
}

/** `count` distinct lower-case 0x addresses. */
export function generateAccounts(count: number, seed: number): string[] {
  const rng = new SeededRandom(seed);
  const accounts = new Set<string>();
  while (accounts.size < count) accounts.add(`0x${hexWords(rng, 5)}`);
  return [...accounts];
}

/**
 * Leaderboard rows for these accounts (the venue's file shape): PnL of either sign in every window,
 * and about one account in ten without volume in the last 30 days (discovery must skip those).
 */
export function leaderboardRowsFor(accounts: string[], seed: number): LeaderboardRow[] {
  const rng = new SeededRandom(seed);
  return accounts.map((ethAddress, index) => {
    const accountValue = 10 ** rng.between(3, 7);
    const idle = rng.chance(0.1);
    const window = (name: string, days: number): [string, { pnl: string; roi: string; vlm: string }] => {
      const active = !(idle && days <= 30);
      const pnl = active ? accountValue * rng.between(-0.02, 0.03) * Math.sqrt(days) : 0;
      const vlm = active ? accountValue * days * rng.between(0.5, 20) : 0;
      return [name, { pnl: money(pnl), roi: trimDecimal((pnl / accountValue).toFixed(8)), vlm: money(vlm) }];
    };
    return {
      ethAddress,
      accountValue: money(accountValue),
      displayName: rng.chance(0.2) ? `trader${index}` : null,
      prize: 0,
      windowPerformances: [window('day', 1), window('week', 7), window('month', 30), window('allTime', 365)],
    };
  });
}

/** What the fills of one order share. */
interface OrderStamp {
  time: number;
  hash: string;
  oid: number;
  /** Taker: an order filled against several makers always is. */
  crossed: boolean;
}

class AccountStory {
  private readonly rng: SeededRandom;
  private readonly books: Book[];
  private readonly fills: VenueFill[] = [];
  private readonly flipShare: number;
  private tid: number;
  private oid: number;

  constructor(private readonly options: GenerateFillsOptions) {
    this.rng = new SeededRandom(options.seed);
    this.flipShare = options.flipShare ?? 0.05;
    // The account's usual order notional, $300 to $100,000: traders differ by orders of magnitude.
    const notional = 10 ** this.rng.between(2.5, 5);
    this.books = chooseCoins(this.rng, options.coins).map((coin) => openBook(coin, notional));
    this.tid = 1e14 + Math.floor(this.rng.next() * 1e14);
    this.oid = 1e10 + Math.floor(this.rng.next() * 1e10);
  }

  run(): VenueFill[] {
    const count = this.options.count;
    while (this.fills.length < count) {
      const book = this.rng.pick(this.books);
      const delta = this.plan(book);
      const legs = Math.min(this.legCount(), Math.abs(delta), count - this.fills.length);
      this.order(book, delta, legs);
      this.movePrice(book);
    }
    return this.fills;
  }

  /** The signed size in units of the next order on this coin: open, add, reduce, close or flip. */
  private plan(book: Book): number {
    const lot = Math.max(1, Math.round(book.lot * this.rng.between(0.3, 1.7)));
    const held = Math.abs(book.units);
    if (held === 0) return this.rng.chance(0.5) ? lot : -lot;
    const sign = book.units > 0 ? 1 : -1;
    const r = this.rng.next();
    if (r < this.flipShare) return -book.units - sign * lot;
    if (r < this.flipShare + 0.35 && held < 4 * book.lot) return sign * lot;
    if (r < this.flipShare + 0.7 && held > 1)
      return -sign * Math.max(1, Math.floor(held * this.rng.between(0.1, 0.9)));
    return -book.units;
  }

  /** Mostly one fill per order; sometimes the order takes several makers' liquidity. */
  private legCount(): number {
    return this.rng.chance(0.6) ? 1 : this.rng.int(2, 5);
  }

  /** One order's fills: one time, hash and oid; a taker walks the book, so each leg's price is worse. */
  private order(book: Book, delta: number, legs: number): void {
    const { startMs, endMs, count } = this.options;
    // Evenly spread order times, jittered: never decreasing, always strictly inside (startMs, endMs).
    const at = (this.fills.length + this.rng.next()) / count;
    const time = startMs + 1 + Math.floor(at * (endMs - startMs - 1));
    const stamp: OrderStamp = {
      time,
      hash: `0x${hexWords(this.rng, 8)}`,
      oid: (this.oid += 1 + Math.floor(this.rng.next() * 10_000)),
      crossed: legs > 1 || this.rng.chance(0.5),
    };
    const isBuy = delta > 0;
    let rest = Math.abs(delta);
    for (let leg = 0; leg < legs; leg += 1) {
      const units = leg === legs - 1 ? rest : this.legUnits(rest, legs - leg);
      rest -= units;
      const slip = 1 + (isBuy ? 3e-4 : -3e-4) * leg;
      this.fill(book, stamp, isBuy, units, priceText(Math.exp(book.logPrice) * slip, book.priceDecimals));
    }
  }

  /** A share of `rest` for one of `legsLeft` legs, leaving at least one unit to each later leg. */
  private legUnits(rest: number, legsLeft: number): number {
    const share = Math.floor((rest / legsLeft) * this.rng.between(0.4, 1.6));
    return Math.max(1, Math.min(rest - (legsLeft - 1), share));
  }

  private fill(book: Book, stamp: OrderStamp, isBuy: boolean, units: number, px: string): void {
    const start = book.units;
    const price = Number(px);
    const closedPnl = settle(book, isBuy, units, price);
    const fill: VenueFill = {
      coin: book.coin,
      px,
      sz: unitsText(units, book),
      side: isBuy ? 'B' : 'A',
      time: stamp.time,
      startPosition: unitsText(start, book),
      dir: directionOf(start, isBuy, units),
      closedPnl: closedPnl === 0 ? '0.0' : money(closedPnl),
      hash: stamp.hash,
      oid: stamp.oid,
      crossed: stamp.crossed,
      fee: money(((price * units) / book.scale) * FEE_RATE),
    };
    if (this.options.withTid !== false) {
      fill.tid = this.tid += 1 + Math.floor(this.rng.next() * 5_000);
      fill.feeToken = 'USDC';
    }
    this.fills.push(fill);
  }

  /** A random walk of ±0.3 % per order, pulled back towards the recorded mid so it never wanders off. */
  private movePrice(book: Book): void {
    book.logPrice += (this.rng.next() - 0.5) * 0.006 - 0.001 * (book.logPrice - book.logStart);
  }
}

/** The venue's `dir` of a fill of `units` on the side `isBuy` when the position was `start` units. */
function directionOf(start: number, isBuy: boolean, units: number): string {
  if (start === 0 || start > 0 === isBuy) return isBuy ? 'Open Long' : 'Open Short';
  if (units > Math.abs(start)) return start > 0 ? 'Long > Short' : 'Short > Long';
  return start > 0 ? 'Close Long' : 'Close Short';
}

/**
 * Applies a fill to the book and answers what its closing part realised: (price − average entry) ×
 * tokens closed, negated for a short. Opening or adding re-weights the average entry by size; reducing
 * keeps it; the opening part of a flip starts a new average at the fill's price.
 */
function settle(book: Book, isBuy: boolean, units: number, price: number): number {
  const start = book.units;
  const held = Math.abs(start);
  book.units = start + (isBuy ? units : -units);
  if (start === 0 || start > 0 === isBuy) {
    book.average = (book.average * held + price * units) / (held + units);
    return 0;
  }
  const closed = Math.min(units, held);
  const move = ((price - book.average) * closed) / book.scale;
  if (units > held) book.average = price;
  else if (units === held) book.average = 0;
  return start > 0 ? move : -move;
}

let universe: Map<string, { szDecimals: number; mid: number }> | undefined;

/** The recorded meta and mids, read once: every generated account starts from them. */
function recordedUniverse(): Map<string, { szDecimals: number; mid: number }> {
  if (universe) return universe;
  const mids = recordedMids();
  universe = new Map();
  for (const asset of recordedMeta().universe) {
    const mid = mids[asset.name];
    if (mid !== undefined) universe.set(asset.name, { szDecimals: asset.szDecimals, mid: Number(mid) });
  }
  return universe;
}

function chooseCoins(rng: SeededRandom, coins: string[] | undefined): string[] {
  if (coins) {
    if (coins.length === 0) throw new Error('generateFills needs at least one coin');
    return coins;
  }
  const popular = [...recordedUniverse().keys()].slice(0, 12);
  const chosen = new Set<string>();
  const wanted = rng.int(1, 4);
  while (chosen.size < wanted) chosen.add(rng.pick(popular));
  return [...chosen];
}

function openBook(coin: string, notional: number): Book {
  const asset = recordedUniverse().get(coin);
  if (!asset) throw new Error(`${coin} is not a coin of the recorded meta and mids`);
  const scale = 10 ** asset.szDecimals;
  const logStart = Math.log(asset.mid);
  return {
    coin,
    szDecimals: asset.szDecimals,
    scale,
    priceDecimals: 6 - asset.szDecimals,
    logPrice: logStart,
    logStart,
    lot: Math.max(1, Math.round((notional / asset.mid) * scale)),
    units: 0,
    average: 0,
  };
}

/** The venue's price rule: five significant figures, at most 6 − szDecimals decimals, as text. */
function priceText(price: number, maxDecimals: number): string {
  const digitsBeforePoint = Math.floor(Math.log10(price)) + 1;
  return trimDecimal(price.toFixed(Math.max(0, Math.min(maxDecimals, 5 - digitsBeforePoint))));
}

/** Signed units as the venue writes sizes: exact, trailing zeros dropped, at least one decimal. */
function unitsText(units: number, book: Book): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  if (book.szDecimals === 0) return `${sign}${abs}.0`;
  const whole = Math.floor(abs / book.scale);
  let fraction = abs - whole * book.scale;
  if (fraction === 0) return `${sign}${whole}.0`;
  let digits = book.szDecimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return `${sign}${whole}.${String(fraction).padStart(digits, '0')}`;
}

/** A dollar amount to six decimals, written as the venue does ("0.0", "-14.771454"). */
function money(value: number): string {
  return trimDecimal(value.toFixed(6));
}

/** Python's float style, which the venue's strings follow: no trailing zeros, but at least "x.0". */
function trimDecimal(text: string): string {
  const point = text.indexOf('.');
  if (point < 0) return `${text}.0`;
  let end = text.length;
  while (end > point + 2 && text.charCodeAt(end - 1) === 48) end -= 1;
  const written = end === text.length ? text : text.slice(0, end);
  return written === '-0.0' ? '0.0' : written;
}

const hexBytes = Buffer.alloc(32);

/** `words` × 8 hex digits (through one reused buffer: Number#toString(16) is slow in this hot loop). */
function hexWords(rng: SeededRandom, words: number): string {
  for (let i = 0; i < words; i += 1) hexBytes.writeUInt32BE(Math.floor(rng.next() * 4294967296), i * 4);
  return hexBytes.toString('hex', 0, words * 4);
}
