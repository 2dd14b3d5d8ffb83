import { getAddress } from 'viem';
import { SeededRandom } from '../../src/service/fixture/random';
import { allocateColumns, type PositionColumns } from '../../src/service/statistics/compute/position-columns';

export type { PositionColumns };

const DAY_MS = 86_400_000;
const SYMBOLS = ['BTC', 'ETH', 'SOL', 'ARB', 'LINK', 'DOGE', 'AVAX', 'OP', 'XRP', 'BNB', 'EUR', 'GBP'];

export interface GenerateOptions {
  seed: number;
  nowMs: number;
  /** Traders per protocol; positions are spread over them. */
  accounts?: number;
  protocols?: number;
  tokens?: number;
  days?: number;
}

/**
 * A deterministic set of `count` positions sorted by (protocol, account): ~3 % open, closes over
 * `days` days before now, leverage 1..50, some liquidations and some break-even trades. Typed
 * arrays only, so it scales to ten million positions.
 */
export function generatePositions(count: number, options: GenerateOptions): PositionColumns {
  const random = new SeededRandom(options.seed);
  const protocolCount = options.protocols ?? 8;
  const tokenCount = Math.min(options.tokens ?? 12, SYMBOLS.length);
  const days = options.days ?? 120;
  const traders = options.accounts ?? Math.max(1, Math.round(count / protocolCount / 20));
  const accounts = Array.from({ length: traders }, () => getAddress(`0x${random.hex(20)}`));
  const protocols = Array.from(
    { length: protocolCount },
    (_, i) => `BENCH_${String.fromCharCode(65 + i)}_ARB`,
  );
  const tokens = Array.from({ length: tokenCount }, (_, i) =>
    getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`),
  );
  const pairs = SYMBOLS.slice(0, tokenCount).map((s) => `${s}/USD`);
  const c = allocateColumns(count, { accounts, protocols, tokens, pairs });
  const perProtocol = Math.ceil(count / protocolCount);
  for (let i = 0; i < count; i += 1) {
    const protocol = Math.floor(i / perProtocol);
    // Accounts ascend within a protocol: each trader's positions are one run.
    const account = Math.floor(((i % perProtocol) / perProtocol) * traders);
    fillOne(c, i, random, {
      protocol,
      account,
      token: random.int(0, tokenCount - 1),
      nowMs: options.nowMs,
      days,
    });
  }
  return c;
}

function fillOne(
  c: PositionColumns,
  i: number,
  random: SeededRandom,
  at: { protocol: number; account: number; token: number; nowMs: number; days: number },
): void {
  const leverage = random.int(1, 50);
  const collateral = Math.round(random.between(50, 20_000));
  const size = collateral * leverage;
  const open = random.chance(0.03);
  const openTime = at.nowMs - random.between(0, at.days) * DAY_MS;
  const close = open ? NaN : Math.min(at.nowMs, openTime + random.between(60_000, 10 * DAY_MS));
  const move = random.chance(0.02) ? 0 : random.between(-0.08, 0.08);
  const liquidated = !open && move * leverage <= -0.95;
  c.protocol[i] = at.protocol;
  c.account[i] = at.account;
  c.token[i] = at.token;
  c.isLong[i] = random.chance(0.6) ? 1 : 0;
  c.isLiquidate[i] = liquidated ? 1 : 0;
  c.size[i] = size;
  c.collateral[i] = collateral;
  c.averagePrice[i] = 10 + at.token * 100;
  c.realisedPnl[i] = open ? 0 : liquidated ? -collateral : Math.round(size * move * 100) / 100;
  c.fee[i] = Math.round(size * 0.0007 * 100) / 100;
  c.funding[i] = open ? 0 : -Math.round(size * random.between(0, 0.0004) * 100) / 100;
  c.openTimeMs[i] = Math.round(openTime);
  c.closeTimeMs[i] = Number.isNaN(close) ? NaN : Math.round(close);
  c.orderCount[i] = open ? 1 : random.int(2, 6);
}
