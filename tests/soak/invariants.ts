// What must hold in the service's database after any crash (issue 15, item 11), checked from the
// file itself while the service is down, against what the soak's clients were told:
// - money: each wallet's balance is its deposits − withdrawals − fees + realised PnL (+ funding
//   on closed positions), so no balance change was written without the row that explains it;
// - copying: no source order was copied twice for one copy trade, and every source order the
//   sandbox recorded was also copied (the two are one transaction);
// - withdrawals: every withdrawal the service confirmed is stored exactly once, under the key the
//   client sent, and none is stored that the client never asked for.
import type { Database } from 'better-sqlite3';

/** What one user's client knows about the money it moved. */
export interface WalletLedger {
  walletId: string;
  startingBalance: number;
  /** Deposits the service confirmed. */
  deposits: number[];
  /** A deposit sent whose answer was lost in a crash: stored or not, the check decides which. */
  uncertainDeposit: number | null;
  /** Withdrawals by idempotency key: the amount asked, and the record's txHash once confirmed. */
  withdrawals: Map<string, { amount: number; confirmedId: string | null }>;
}

/** Σ of a column per wallet, as a map. */
function sumsBy(db: Database, sql: string): Map<string, number> {
  const rows = db.prepare(sql).all() as { wallet: string; total: number }[];
  return new Map(rows.map((r) => [r.wallet, r.total]));
}

/** A cent's tenth: balances are kept in doubles, each change rounded to the micro-dollar. */
const TOLERANCE = 1e-4;

/**
 * Checks each wallet's balance against its ledger. An uncertain deposit is settled here: if the
 * balance shows it, it was stored (and joins the confirmed deposits), else it was not.
 */
export function checkBalances(db: Database, wallets: readonly WalletLedger[]): string[] {
  const violations: string[] = [];
  const balance = sumsBy(db, 'SELECT id AS wallet, balance AS total FROM copy_wallets');
  const withdrawn = sumsBy(
    db,
    'SELECT copy_wallet_id AS wallet, SUM(amount) AS total FROM withdrawals GROUP BY copy_wallet_id',
  );
  const trading = sumsBy(
    db,
    `SELECT copy_wallet_id AS wallet,
            SUM(realised_pnl - fee + CASE WHEN status = 'CLOSE' THEN funding ELSE 0 END) AS total
       FROM copy_positions GROUP BY copy_wallet_id`,
  );
  for (const w of wallets) {
    const stored = balance.get(w.walletId);
    if (stored === undefined) {
      violations.push(`wallet ${w.walletId} is missing`);
      continue;
    }
    const expected =
      w.startingBalance +
      w.deposits.reduce((a, b) => a + b, 0) -
      (withdrawn.get(w.walletId) ?? 0) +
      (trading.get(w.walletId) ?? 0);
    const gap = stored - expected;
    if (w.uncertainDeposit !== null && Math.abs(gap - w.uncertainDeposit) <= TOLERANCE) {
      w.deposits.push(w.uncertainDeposit);
      w.uncertainDeposit = null;
      continue;
    }
    w.uncertainDeposit = null;
    if (Math.abs(gap) > TOLERANCE)
      violations.push(
        `wallet ${w.walletId}: balance ${stored} but deposits − withdrawals − fees + realised PnL = ${expected} (off by ${gap.toFixed(6)})`,
      );
  }
  return violations;
}

/** Every confirmed withdrawal stored once under its key; nothing stored the client did not ask for. */
export function checkWithdrawals(db: Database, wallets: readonly WalletLedger[]): string[] {
  const violations: string[] = [];
  for (const w of wallets) {
    const rows = db
      .prepare(
        'SELECT tx_hash AS id, idempotency_key AS key, amount FROM withdrawals WHERE copy_wallet_id = ?',
      )
      .all(w.walletId) as { id: string; key: string | null; amount: number }[];
    const byKey = new Map<string, { id: string; amount: number }[]>();
    for (const row of rows) {
      if (row.key === null || !w.withdrawals.has(row.key)) {
        violations.push(`wallet ${w.walletId}: withdrawal ${row.id} was never asked for (key ${row.key})`);
        continue;
      }
      byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
    }
    for (const [key, asked] of w.withdrawals) {
      const stored = byKey.get(key) ?? [];
      if (stored.length > 1)
        violations.push(`withdrawal ${key} is stored ${stored.length} times: paid twice`);
      if (asked.confirmedId !== null && stored.length === 0)
        violations.push(`withdrawal ${key} was confirmed as ${asked.confirmedId} and is lost`);
      if (asked.confirmedId !== null && stored[0] && stored[0].id !== asked.confirmedId)
        violations.push(
          `withdrawal ${key} was confirmed as ${asked.confirmedId} but is stored as ${stored[0].id}`,
        );
      if (stored[0] && stored[0].amount !== asked.amount)
        violations.push(`withdrawal ${key} asked ${asked.amount} and is stored as ${stored[0].amount}`);
    }
  }
  return violations;
}

/**
 * No source order copied twice for one copy trade, and no source order recorded but not copied.
 * An activity log that comes from a source order carries its transaction hash; logs of exits the
 * engine made itself (stop loss, take profit, liquidation on a price) carry the price's label.
 */
export function checkCopying(db: Database, sourceTxHashes: ReadonlySet<string>): string[] {
  const violations: string[] = [];
  const repeated = db
    .prepare(
      `SELECT copy_trade_id AS trade, source_tx_hash AS tx, COUNT(*) AS n
         FROM activity_logs GROUP BY copy_trade_id, source_tx_hash, type HAVING COUNT(*) > 1`,
    )
    .all() as { trade: string; tx: string; n: number }[];
  for (const r of repeated)
    if (sourceTxHashes.has(r.tx))
      violations.push(`source order ${r.tx} was copied ${r.n} times by copy trade ${r.trade}`);
  const uncopied = db
    .prepare(
      `SELECT COUNT(*) FROM sandbox_orders s
        WHERE NOT EXISTS (SELECT 1 FROM copy_source_orders c WHERE c.id = s.id)`,
    )
    .pluck()
    .get() as number;
  if (uncopied > 0) violations.push(`${uncopied} source orders were recorded but never copied`);
  return violations;
}

/** Every source order the service confirmed is recorded. */
export function checkSourceOrders(db: Database, confirmedIds: readonly string[]): string[] {
  const seen = db.prepare('SELECT 1 FROM sandbox_orders WHERE id = ?').pluck();
  const lost = confirmedIds.filter((id) => seen.get(id) === undefined);
  return lost.length === 0 ? [] : [`${lost.length} confirmed source orders are lost (first ${lost[0]})`];
}
