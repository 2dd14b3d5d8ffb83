// Who follows whom: the copy trades in memory, by source account (RUNNING ones, for opens) and by
// id (all, for the positions they hold). Rebuilt when the copy trades change: the store's change
// counter moves on every write through copy-trading/copy-trades.ts, and invalidate() covers
// any other writer.
import type { CopyTrade } from '../../shared/api/copy-trades';
import { copyTradesVersion, listAllCopyTrades } from '../copy-trading/copy-trades';
import type { ServiceDb } from '../store/database';
import { addressKey } from './ids';

/** A copy trade with its token lists ready for lookups. */
export interface FollowedTrade {
  trade: CopyTrade;
  /** `tokenAddresses` by addressKey. */
  tokens: ReadonlySet<string>;
  /** `excludingTokenAddresses` by addressKey. */
  excluded: ReadonlySet<string>;
}

/** A RUNNING copy trade following one source account, spelled as the copy trade spells it. */
export interface Follow {
  followed: FollowedTrade;
  account: string;
}

const followKey = (protocol: string, account: string) => `${protocol}|${addressKey(account)}`;
const NONE: readonly Follow[] = [];

/** The source accounts a copy trade follows: `account`, plus `accounts` when `multipleCopy`. */
export function followedAccounts(trade: CopyTrade): string[] {
  const all = trade.multipleCopy ? [trade.account, ...trade.accounts] : [trade.account];
  const seen = new Set<string>();
  return all.filter((a) => !seen.has(addressKey(a)) && seen.add(addressKey(a)));
}

/** The copy trades in memory; reads reload them first when they changed. */
export class Followers {
  private version = -1;
  private byAccount = new Map<string, Follow[]>();
  private byId = new Map<string, FollowedTrade>();

  constructor(private readonly db: ServiceDb) {}

  /** The RUNNING copy trades following `account` on `protocol`. */
  of(protocol: string, account: string): readonly Follow[] {
    this.fresh();
    return this.byAccount.get(followKey(protocol, account)) ?? NONE;
  }

  /** The copy trade with this id, whatever its status. */
  trade(id: string): FollowedTrade | undefined {
    this.fresh();
    return this.byId.get(id);
  }

  /** Forgets the copy trades: the next read reloads them. */
  invalidate(): void {
    this.version = -1;
  }

  private fresh(): void {
    const version = copyTradesVersion(this.db);
    if (version === this.version) return;
    this.load();
    this.version = version;
  }

  private load(): void {
    this.byAccount = new Map();
    this.byId = new Map();
    for (const trade of listAllCopyTrades(this.db)) {
      const followed: FollowedTrade = {
        trade,
        tokens: new Set(trade.tokenAddresses.map(addressKey)),
        excluded: new Set(trade.excludingTokenAddresses.map(addressKey)),
      };
      this.byId.set(trade.id, followed);
      if (trade.status !== 'RUNNING') continue;
      for (const account of followedAccounts(trade)) {
        const key = followKey(trade.protocol, account);
        const list = this.byAccount.get(key);
        if (list) list.push({ followed, account });
        else this.byAccount.set(key, [{ followed, account }]);
      }
    }
  }
}
