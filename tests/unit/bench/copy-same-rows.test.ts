// bench:copy's same-rows floor (tests/bench/copy-same-rows.ts): the copy engine's writes, captured
// and replayed by SQLite alone on a copy of the same starting database, leave exactly the engine's
// rows; and the comparison that the bench relies on tells a replay that dropped or reordered a
// write. docs/copy-engine.md#the-floor-the-same-rows.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceDatabase } from '../../../src/service/store/database';
import {
  captureEngineWrites,
  differingTables,
  replayer,
  WriteCapture,
  type CapturedWrites,
} from '../../bench/copy-same-rows';
import { sourceOrders, traderAddresses, writeWorld } from '../../bench/copy-world';

const BATCH = 25;
const ORDERS = 300;

let dir = '';
let world = '';
let n = 0;
const copyOfWorld = (): string => {
  n += 1;
  const path = join(dir, `copy-${n}.db`);
  copyFileSync(world, path);
  return path;
};

/** Replays `writes` on a fresh copy of the starting database, a captured transaction at a time. */
function replayed(writes: CapturedWrites): string {
  const path = copyOfWorld();
  const db = openServiceDatabase(path);
  try {
    const replay = replayer(db, writes);
    for (let t = 0; t < writes.ends.length; t += 1) replay(t);
  } finally {
    db.close();
  }
  return path;
}

/** `writes` without write `i` (its transaction one write shorter). */
function without(writes: CapturedWrites, i: number): CapturedWrites {
  return {
    sql: writes.sql,
    statements: writes.statements.filter((_, k) => k !== i),
    args: writes.args.filter((_, k) => k !== i),
    ends: writes.ends.map((end) => (end > i ? end - 1 : end)),
  };
}

/** `writes` with writes `i` and `j` swapped (both of one statement, so each still binds). */
function swapped(writes: CapturedWrites, i: number, j: number): CapturedWrites {
  const args = [...writes.args];
  [args[i], args[j]] = [args[j] as unknown[], args[i] as unknown[]];
  return { ...writes, args };
}

/** The index of the `nth` write (from 0) whose SQL starts with `prefix`. */
function writeOf(writes: CapturedWrites, prefix: RegExp, nth = 0): number {
  const statement = writes.sql.findIndex((sql) => prefix.test(sql.trim()));
  const at = writes.statements.flatMap((s, i) => (s === statement ? [i] : []))[nth];
  if (at === undefined) throw new Error(`no write ${nth} of ${prefix}`);
  return at;
}

describe("bench:copy's same-rows floor", () => {
  let captured: Awaited<ReturnType<typeof captureEngineWrites>>;
  let capturePath = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'copydesk-same-rows-'));
    world = join(dir, 'world.db');
    const traders = traderAddresses();
    await writeWorld(world, traders, 50);
    capturePath = copyOfWorld();
    captured = await captureEngineWrites(
      capturePath,
      BATCH,
      sourceOrders(traders, Date.UTC(2026, 0, 1), ORDERS),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('captures the engine’s transactions and the rows it wrote', () => {
    expect(captured.writes.ends).toHaveLength(ORDERS / BATCH);
    expect(captured.counts.copy_orders).toBeGreaterThan(100);
    expect(captured.counts.activity_logs).toBeGreaterThan(100);
    // A source order's mark, copy orders, activity logs, positions (inserted and updated), wallets.
    const kinds = captured.writes.sql.map((sql) =>
      /^\s*(\w+)(?: OR \w+)? (?:INTO )?(\w+)/.exec(sql)?.slice(1).join(' '),
    );
    expect(kinds).toEqual(
      expect.arrayContaining([
        'INSERT copy_source_orders',
        'INSERT copy_orders',
        'INSERT activity_logs',
        'INSERT copy_positions',
        'UPDATE copy_positions',
        'UPDATE copy_wallets',
      ]),
    );
    // The engine's guard in the temp schema is its bookkeeping, not replayed.
    expect(captured.writes.sql.filter((sql) => /temp\./i.test(sql))).toEqual([]);
  });

  it('replayed by SQLite alone, leaves exactly the engine’s rows in every table', () => {
    expect(differingTables(capturePath, replayed(captured.writes))).toEqual([]);
  });

  it('tells a replay that dropped a write', () => {
    const dropped = replayed(
      without(captured.writes, writeOf(captured.writes, /^INSERT INTO activity_logs/, 7)),
    );
    expect(differingTables(capturePath, dropped).map((d) => d.table)).toEqual(['activity_logs']);
  });

  it('tells a replay that reordered two writes of one statement', () => {
    const insert = /^INSERT INTO copy_orders/;
    const first = writeOf(captured.writes, insert, 3);
    const reordered = replayed(swapped(captured.writes, first, writeOf(captured.writes, insert, 4)));
    expect(differingTables(capturePath, reordered).map((d) => d.table)).toContain('copy_orders');
  });

  it('tells a replay that ran a position update before the one it followed', () => {
    const update = /^UPDATE copy_positions/;
    // Two updates of the same position, swapped: the position ends with the earlier fill's values.
    const updates = captured.writes.statements.flatMap((s, i) =>
      update.test((captured.writes.sql[s] as string).trim()) ? [i] : [],
    );
    const idOf = (i: number) => (captured.writes.args[i] as unknown[]).at(-1);
    const [a, b] = updates.flatMap((i) => {
      const later = updates.find(
        (j) =>
          j > i && idOf(j) === idOf(i) && captured.writes.statements[j] === captured.writes.statements[i],
      );
      return later === undefined ? [] : [[i, later]];
    })[0] ?? [-1, -1];
    expect(a, 'two updates of one position in the capture').toBeGreaterThanOrEqual(0);
    const reordered = replayed(swapped(captured.writes, a as number, b as number));
    expect(differingTables(capturePath, reordered).map((d) => d.table)).toEqual(['copy_positions']);
  });
});

describe('WriteCapture', () => {
  it('keeps the writes of committed transactions only, savepoints included', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER)');
    const capture = new WriteCapture(db);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const read = db.prepare('SELECT COUNT(*) FROM t').pluck();
    const inner = db.transaction((x: number) => {
      insert.run(x);
      if (x < 0) throw new Error('rolled back');
    });
    const outer = db.transaction((xs: number[]) => {
      for (const x of xs) {
        try {
          inner(x);
        } catch {
          // The savepoint rolled back; the transaction goes on.
        }
      }
      read.get();
      if (xs.includes(99)) throw new Error('rolled back');
    });
    capture.start();
    outer([1, -2, 3]);
    expect(() => outer([4, 99])).toThrow('rolled back');
    insert.run(5);
    capture.stop();
    insert.run(6);
    expect(capture.writes.sql).toEqual(['INSERT INTO t VALUES (?)']);
    expect(capture.writes.args).toEqual([[1], [3], [5]]);
    expect(capture.writes.ends).toEqual([2, 3]);
    expect(read.get()).toBe(4);
    db.close();
  });
});
