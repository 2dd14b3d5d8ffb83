// The world of bench:copy, shared with bench:copy-pages: 1,000 RUNNING copy trades (200 users with
// 5 each) following 100 traders, and the traders' source orders. docs/copy-engine.md, Speed.
import { getAddress } from 'viem';
import { createLocalService } from '../../src/service/app';
import { defaultConfig, type ServiceConfig } from '../../src/service/config';
import type { SourceOrder } from '../../src/service/copy-engine/types';
import { createCopyTrade } from '../../src/service/copy-trading/copy-trade-commands';
import { SeededRandom } from '../../src/service/fixture/random';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { createUser } from '../../src/service/users/users';
import { exchangeOf } from '../../src/shared/profile';

export const COPY_TRADES = 1_000;
const TRADERS = 100;
const PROTOCOL = 'NOVA_ARB';
const SYMBOLS = ['BTC', 'ETH', 'SOL', 'ARB', 'LINK', 'DOGE'];

/** The 100 traders' addresses (the same in every run). */
export function traderAddresses(): string[] {
  const random = new SeededRandom(3);
  return Array.from({ length: TRADERS }, () => getAddress(`0x${random.hex(20)}`));
}

/** The service's configuration for a bench:copy database at `dbPath`. */
export const copyBenchConfig = (dbPath: string): ServiceConfig =>
  defaultConfig({ dbPath, port: 0, copyTradeQuota: 10, startingBalance: 1e9 });

/**
 * 200 users with 5 copy trades each, every trader followed by 10 of them (`copyTrades` fewer for
 * a small world: 5 per user, the first traders followed).
 */
export function followers(
  service: ReturnType<typeof createLocalService>,
  traders: string[],
  copyTrades = COPY_TRADES,
): void {
  const random = new SeededRandom(5);
  const { db, config, ctx } = service;
  for (let u = 0; u < copyTrades / 5; u += 1) {
    const user = createUser(db, config, getAddress(`0x${random.hex(20)}`), {});
    const wallet = db.prepare('SELECT id FROM copy_wallets WHERE user_id = ?').pluck().get(user.id) as string;
    for (let k = 0; k < 5; k += 1) {
      const trader = traders[(u * 5 + k) % TRADERS] as string;
      createCopyTrade(ctx, user, {
        title: `bench ${u}-${k}`,
        volume: 100,
        account: trader,
        leverage: 5,
        protocol: PROTOCOL,
        exchange: exchangeOf(config.venue),
        copyWalletId: wallet,
        type: 'COPY_TRADER',
        excludingTokenAddresses: [],
        tokenAddresses: [],
        volumeProtection: k % 2 === 0,
      });
    }
  }
}

/**
 * Writes bench:copy's starting database at `path` (the service's schema, the users and their copy
 * trades) and closes it, so that copies of the file start every run of the same workload from the
 * same rows (the ids of users and copy trades are not seeded, so a world built twice differs).
 */
export async function writeWorld(path: string, traders: string[], copyTrades = COPY_TRADES): Promise<void> {
  const service = createLocalService(copyBenchConfig(path));
  try {
    followers(service, traders, copyTrades);
  } finally {
    await service.close();
  }
}

/** Each trader opens, grows, trims and closes positions on a few tokens; sizes and prices drift. */
export function sourceOrders(traders: string[], startMs: number, count: number): SourceOrder[] {
  const random = new SeededRandom(9);
  const open = new Map<string, { size: number; collateral: number; isLong: boolean }>();
  const out: SourceOrder[] = [];
  let t = startMs;
  for (let i = 0; i < count; i += 1) {
    const account = traders[random.int(0, TRADERS - 1)] as string;
    const symbol = random.pick(SYMBOLS);
    const key = `${account}|${symbol}`;
    const held = open.get(key);
    const price = 100 * (1 + random.between(-0.05, 0.05));
    t += 10;
    const base = {
      id: `bench-${i}`,
      account,
      protocol: PROTOCOL,
      indexToken: indexTokenAddress(PROTOCOL, symbol),
      price,
      blockTimeMs: t,
      txHash: `0x${i.toString(16).padStart(64, '0')}`,
      isLiquidate: false,
    };
    if (!held) {
      const size = random.between(1_000, 20_000);
      const collateral = size / random.int(2, 20);
      open.set(key, { size, collateral, isLong: random.chance(0.6) });
      out.push({
        ...base,
        isLong: open.get(key)!.isLong,
        type: 'OPEN',
        sizeDeltaUsd: size,
        collateralDeltaUsd: collateral,
        sizeBeforeUsd: 0,
        collateralBeforeUsd: 0,
      });
      continue;
    }
    const roll = random.next();
    const type = roll < 0.3 ? 'INCREASE' : roll < 0.6 ? 'DECREASE' : 'CLOSE';
    const delta = type === 'CLOSE' ? held.size : held.size * random.between(0.1, 0.5);
    out.push({
      ...base,
      isLong: held.isLong,
      type,
      sizeDeltaUsd: delta,
      collateralDeltaUsd: type === 'INCREASE' ? delta / 5 : 0,
      sizeBeforeUsd: held.size,
      collateralBeforeUsd: held.collateral,
    });
    if (type === 'CLOSE') open.delete(key);
    else held.size += type === 'INCREASE' ? delta : -delta;
  }
  return out;
}
