// The engine's working state in memory: the open copy positions (by id, by source position, by
// holding, by token), how many positions each copy trade has had, the skipped source positions,
// the wallets' balances and held margin, and the mark prices. Copying an order reads nothing from
// SQLite; SQLite stays the durable record, loaded from on demand and reloaded per domain when
// someone else writes it (external-writes.ts). docs/copy-engine.md, Speed.
import { roundUsd, USD_DECIMALS } from '../copy-trading/money';
import type { ServiceDb } from '../store/database';
import type { StateDomain } from './external-writes';
import { LogNumbers } from './log-numbers';
import { POSITION_COLUMNS_SQL, positionOfRow, type EnginePosition } from './position-rows';

/** A mark price as stored. */
interface Mark {
  price: number;
  timeMs: number;
}

// Held margin is summed in integer micro-USD, so that it never drifts over millions of fills:
// margins are 6-decimal amounts, so the sum is the store's TOTAL() over them, to the micro.
const MICROS = 10 ** USD_DECIMALS;
const micros = (usd: number): number => Math.round(usd * MICROS);

const holdingKey = (copyTradeId: string, account: string, indexToken: string, isLong: boolean) =>
  `${copyTradeId}|${account}|${indexToken}|${isLong ? 'L' : 'S'}`;
const skipKey = (copyTradeId: string, sourceKey: string) => `${copyTradeId}|${sourceKey}`;

/** Positions oldest first, as the store orders them: by creation time, then id. */
const before = (a: EnginePosition, b: EnginePosition): boolean =>
  a.createdAtMs < b.createdAtMs || (a.createdAtMs === b.createdAtMs && a.id < b.id);

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function remove<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}

function statements(db: ServiceDb) {
  return {
    openPositions: db
      .prepare(
        `SELECT ${POSITION_COLUMNS_SQL} FROM copy_positions p WHERE p.status = 'OPEN' ORDER BY p.rowid`,
      )
      .raw(),
    counts: db.prepare(
      'SELECT copy_trade_id AS id, COUNT(*) AS n FROM copy_positions GROUP BY copy_trade_id',
    ),
    skipped: db.prepare('SELECT copy_trade_id AS id, source_key AS key FROM copy_skipped_sources'),
    balance: db.prepare('SELECT balance FROM copy_wallets WHERE id = ?').pluck(),
    marks: db.prepare('SELECT index_token AS token, price, time_ms AS timeMs FROM mark_prices'),
  };
}

/** The open positions and their indexes; rebuilt as a whole from the store. */
class OpenPositions {
  readonly byId = new Map<string, EnginePosition>();
  /** Open positions by source key, oldest first. */
  readonly bySource = new Map<string, EnginePosition[]>();
  /** Open positions by copy trade, account, token and side, in the order written. */
  readonly byHolding = new Map<string, EnginePosition[]>();
  readonly byToken = new Map<string, Set<EnginePosition>>();
  /** Positions (open or closed) per copy trade. */
  readonly counts = new Map<string, number>();
  readonly skipped = new Set<string>();
  /** Margin held by open positions, per wallet, in micro-USD. */
  readonly held = new Map<string, number>();
  /** The margin each open position counts in `held`, in micro-USD. */
  readonly counted = new Map<EnginePosition, number>();

  constructor(s: ReturnType<typeof statements>) {
    for (const row of s.openPositions.all() as unknown[][]) this.add(positionOfRow(row));
    for (const { id, n } of s.counts.all() as { id: string; n: number }[]) this.counts.set(id, n);
    for (const { id, key } of s.skipped.all() as { id: string; key: string }[])
      this.skipped.add(skipKey(id, key));
  }

  add(p: EnginePosition): void {
    this.byId.set(p.id, p);
    if (p.sourcePositionId !== null) this.addBySource(p.sourcePositionId, p);
    push(this.byHolding, holdingKey(p.copyTradeId, p.copyAccount, p.indexToken, p.isLong), p);
    const onToken = this.byToken.get(p.indexToken);
    if (onToken) onToken.add(p);
    else this.byToken.set(p.indexToken, new Set([p]));
    this.count(p);
  }

  /** Brings `held` up to the position's margin now, or takes it out once closed. */
  count(p: EnginePosition): void {
    const now = p.status === 'OPEN' ? micros(p.margin) : 0;
    const was = this.counted.get(p) ?? 0;
    if (now !== was) this.held.set(p.copyWalletId, (this.held.get(p.copyWalletId) ?? 0) + now - was);
    if (p.status === 'OPEN') this.counted.set(p, now);
    else this.counted.delete(p);
  }

  delete(p: EnginePosition): void {
    this.count(p);
    this.byId.delete(p.id);
    if (p.sourcePositionId !== null) remove(this.bySource, p.sourcePositionId, p);
    remove(this.byHolding, holdingKey(p.copyTradeId, p.copyAccount, p.indexToken, p.isLong), p);
    const onToken = this.byToken.get(p.indexToken);
    onToken?.delete(p);
    if (onToken?.size === 0) this.byToken.delete(p.indexToken);
  }

  private addBySource(key: string, p: EnginePosition): void {
    const list = this.bySource.get(key);
    if (!list) {
      this.bySource.set(key, [p]);
      return;
    }
    // New positions are nearly always the newest: search from the end.
    let i = list.length;
    while (i > 0 && before(p, list[i - 1] as EnginePosition)) i -= 1;
    list.splice(i, 0, p);
  }
}

/** What the engine works on, in memory; each domain loads from the store when first needed. */
export class EngineState {
  private readonly s: ReturnType<typeof statements>;
  private positionsNow: OpenPositions | null = null;
  /** Balances read so far (null: no such wallet). */
  private readonly balances = new Map<string, number | null>();
  private marksNow: Map<string, Mark> | null = null;
  private readonly logNumbers: LogNumbers;

  constructor(db: ServiceDb) {
    this.s = statements(db);
    this.logNumbers = new LogNumbers(db);
  }

  /** Forgets domains someone else wrote: they reload when next needed. */
  forget(domains: ReadonlySet<StateDomain> | 'all'): void {
    const all = domains === 'all';
    if (all || domains.has('positions')) this.positionsNow = null;
    if (all || domains.has('wallets')) this.balances.clear();
    if (all || domains.has('marks')) this.marksNow = null;
    if (all || domains.has('logs')) this.logNumbers.forget();
  }

  /** The `seq` of the user's next activity log. */
  nextLogSeq(userId: string): number {
    return this.logNumbers.next(userId);
  }

  private get positions(): OpenPositions {
    return (this.positionsNow ??= new OpenPositions(this.s));
  }

  private get marks(): Map<string, Mark> {
    if (!this.marksNow) {
      const rows = this.s.marks.all() as ({ token: string } & Mark)[];
      this.marksNow = new Map(rows.map((r) => [r.token, { price: r.price, timeMs: r.timeMs }]));
    }
    return this.marksNow;
  }

  /** The open position with this id, or undefined (closed or unknown). */
  openPosition(id: string): EnginePosition | undefined {
    return this.positions.byId.get(id);
  }

  /** The open copies of a source position, of every copy trade that did not skip it, oldest first. */
  copiesOfSource(key: string): EnginePosition[] {
    const { bySource, skipped } = this.positions;
    return (bySource.get(key) ?? []).filter((p) => !skipped.has(skipKey(p.copyTradeId, key)));
  }

  /** The copy trade's open positions from `account` on `indexToken` on one side (normally at most one). */
  openCopies(copyTradeId: string, account: string, indexToken: string, isLong: boolean): EnginePosition[] {
    return [...(this.positions.byHolding.get(holdingKey(copyTradeId, account, indexToken, isLong)) ?? [])];
  }

  /** The open positions on a token, in no particular order. */
  openOn(indexToken: string): EnginePosition[] {
    return [...(this.positions.byToken.get(indexToken) ?? [])];
  }

  /** How many positions (open or closed) the copy trade has had. */
  positionCount(copyTradeId: string): number {
    return this.positions.counts.get(copyTradeId) ?? 0;
  }

  /** A position the engine just opened. */
  opened(p: EnginePosition): void {
    const positions = this.positions;
    positions.add(p);
    positions.counts.set(p.copyTradeId, (positions.counts.get(p.copyTradeId) ?? 0) + 1);
  }

  /** A position a fill changed: its margin moved, or it closed. */
  changed(p: EnginePosition): void {
    const positions = this.positions;
    if (p.status === 'OPEN') positions.count(p);
    else positions.delete(p);
  }

  isSkipped(copyTradeId: string, sourceKey: string): boolean {
    return this.positions.skipped.has(skipKey(copyTradeId, sourceKey));
  }

  setSkipped(copyTradeId: string, sourceKey: string, skipped: boolean): void {
    const key = skipKey(copyTradeId, sourceKey);
    if (skipped) this.positions.skipped.add(key);
    else this.positions.skipped.delete(key);
  }

  /** The wallet's balance, or null when there is no such wallet. */
  balance(walletId: string): number | null {
    let balance = this.balances.get(walletId);
    if (balance === undefined) {
      balance = (this.s.balance.get(walletId) as number | undefined) ?? null;
      this.balances.set(walletId, balance);
    }
    return balance;
  }

  setBalance(walletId: string, balance: number): void {
    this.balances.set(walletId, balance);
  }

  /** Balance minus the margin held by the wallet's open copy positions (0 for an unknown wallet). */
  availableBalance(walletId: string): number {
    const balance = this.balance(walletId);
    if (balance === null) return 0;
    return roundUsd(balance - (this.positions.held.get(walletId) ?? 0) / MICROS);
  }

  /** The last mark price of a token, or null. */
  markPrice(indexToken: string): number | null {
    return this.marks.get(indexToken)?.price ?? null;
  }

  /** The mark the store holds for a token, or undefined. */
  mark(indexToken: string): Mark | undefined {
    return this.marks.get(indexToken);
  }

  setMark(indexToken: string, mark: Mark): void {
    this.marks.set(indexToken, mark);
  }
}
