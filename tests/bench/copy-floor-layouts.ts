// The storage layouts of bench:copy-floor and how one is measured, shared with bench:copy, which
// prints rowPerFill at its own batch size beside its floor as a narrower reference
// (narrowFloorRatio; its floor is the engine's own rows, copy-same-rows.ts).
// docs/copy-engine.md, What SQLite alone allows.
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/node/sqlite';

export const COPIES = 10;
const POSITIONS = 6_000;
const USERS = 200;

/** One measured run of a layout at one batch size. */
export interface FloorRun {
  layout: string;
  ordersPerTransaction: number;
  ordersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The process's CPU (user + system) during the run, per source order. */
  cpuMsPerOrder: number;
}

/** A writer of one layout: `write(order)` stores source order `order` and its fills. */
export interface Layout {
  name: string;
  schema: string;
  writer: (db: Database.Database) => (order: number) => void;
}

export const rowPerFill: Layout = {
  name: 'rowPerFill',
  schema: `
    CREATE TABLE orders (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, price REAL, size REAL, fee REAL, at_ms INTEGER);
    CREATE INDEX orders_position ON orders(position, id);
    CREATE TABLE logs (id INTEGER PRIMARY KEY, user INTEGER NOT NULL, position INTEGER, copy_order INTEGER,
      price REAL, volume REAL, type INTEGER, at_ms INTEGER);
    CREATE INDEX logs_user ON logs(user, id);
    CREATE TABLE positions (id INTEGER PRIMARY KEY, size REAL, margin REAL, pnl REAL, fee REAL, at_ms INTEGER);`,
  writer: (db) => {
    const insertPosition = db.prepare('INSERT INTO positions VALUES (?, 1, 1, 0, 0, 0)');
    db.transaction(() => {
      for (let p = 0; p < POSITIONS; p += 1) insertPosition.run(p);
    })();
    const order = db.prepare('INSERT INTO orders VALUES (?, ?, 100.5, 1000.25, 0.35, ?)');
    const log = db.prepare('INSERT INTO logs VALUES (?, ?, ?, ?, 100.5, 1000.25, 1, ?)');
    const position = db.prepare(
      'UPDATE positions SET size = ?, margin = 2, pnl = 3, fee = 4, at_ms = ? WHERE id = ?',
    );
    return (o) => {
      // The 10 copies of one source position are neighbours, as the engine writes them.
      const first = (o % (POSITIONS / COPIES)) * COPIES;
      for (let c = 0; c < COPIES; c += 1) {
        const fill = o * COPIES + c;
        order.run(fill, first + c, o);
        log.run(fill, (fill * 7) % USERS, first + c, fill, o);
        position.run(fill, o, first + c);
      }
    };
  },
};

export const rowPerOrder: Layout = {
  name: 'rowPerOrder',
  schema:
    'CREATE TABLE journal (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL UNIQUE, fills BLOB NOT NULL);',
  writer: (db) => {
    const insert = db.prepare('INSERT INTO journal (source_id, fills) VALUES (?, ?)');
    const fills = Buffer.alloc(1_000, 7);
    return (o) => void insert.run(`source-${o}`, fills);
  },
};

/** Writes `orders` source orders in a fresh database file, `perTransaction` to a transaction. */
export function measureFloor(layout: Layout, perTransaction: number, orders: number): FloorRun {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-copy-floor-'));
  const db = openDatabase(join(dir, 'floor.db'), [
    { version: 1, name: layout.name, up: (d) => d.exec(layout.schema) },
  ]);
  try {
    const write = layout.writer(db);
    const batch = db.transaction((from: number, to: number) => {
      for (let o = from; o < to; o += 1) write(o);
    });
    const latencies = new Float64Array(orders);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let from = 0; from < orders; from += perTransaction) {
      const to = Math.min(orders, from + perTransaction);
      const arrived = performance.now();
      batch(from, to);
      latencies.fill(performance.now() - arrived, from, to);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    latencies.sort();
    const at = (q: number) => latencies[Math.min(orders - 1, Math.floor(q * orders))] as number;
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return {
      layout: layout.name,
      ordersPerTransaction: perTransaction,
      ordersPerSecond: Math.round(orders / seconds),
      p50Ms: round(at(0.5)),
      p99Ms: round(at(0.99)),
      cpuMsPerOrder: round((cpu.user + cpu.system) / 1000 / orders),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
