// Imports venue fills: stores them in `fills` (deduplicated), rebuilds the positions and orders of
// every (account, protocol, coin) that got a new fill from all its stored fills, lists new coins as
// tokens, and recomputes the statistics, all in one transaction.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { ServiceDb } from '../../store/database';
import { readMeta, writeMeta } from '../../store/meta';
import { positionWriters } from '../../store/positions';
import { recomputeAll } from '../../statistics/compute/recompute';
import { HYPERLIQUID_PROTOCOL, hyperliquidIndexToken } from '../../../shared/api/feed';
import { indexTokenAddress } from '../catalogue';
import { rebuildSeries } from '../../positions/ledger';
import { fillKeyer } from '../../positions/fill-keys';
import { SERIES_FILLS, ledgerFill, type StoredFill } from '../series-book';
import { FileError, accountField, accountInFileName, type ParsedFile, type ParsedFill } from './fields';
import { parseFillsCsv } from './fills-csv';
import { parseFillsJson } from './fills-json';

/** File formats the importer reads. */
export type FillFormat = 'json' | 'csv';

/** A file to import. */
export interface ImportFile {
  path: string;
  format: FillFormat;
}

/** What to import, and how. */
export interface ImportOptions {
  /** UPPER_SNAKE_CASE protocol the fills belong to, e.g. HYPERLIQUID. */
  protocol: string;
  /** Assumed leverage when the source has no collateral; kept per protocol, default 1. */
  leverage?: number;
  /** The account of every fill whose file does not name one (JSON always; CSV rows without user). */
  account?: string;
  files: ImportFile[];
  nowMs: number;
}

/** A rejected row or a warning, located in its file. */
export interface ImportNote {
  file: string;
  line: number;
  reason: string;
}

/** What an import did. */
export interface ImportResult {
  /** New fills stored. */
  imported: number;
  /** Fills already stored (same key), left as they were. */
  duplicates: number;
  rejected: ImportNote[];
  warnings: ImportNote[];
  /** Files that could not be read at all; nothing of them was imported. */
  unreadable: { file: string; reason: string }[];
  /** Positions written by the rebuild (0 when nothing changed). */
  positions: number;
  /** The accounts the files' good rows belong to, sorted. */
  accounts: string[];
  /** The statistics recompute, or null when nothing changed and none was needed. */
  statistics: { records: number; generation: number } | null;
}

/** Protocol identifiers: UPPER_SNAKE_CASE. */
export const PROTOCOL_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
/** Maximum leverage listed for a token an import adds. */
export const IMPORTED_TOKEN_MAX_LEVERAGE = 50;

/** The format a file's extension names (.json, .csv, any case), or null. */
export function formatOfPath(path: string): FillFormat | null {
  const ext = extname(path).toLowerCase();
  return ext === '.json' ? 'json' : ext === '.csv' ? 'csv' : null;
}

/** Imports `files` into the store (see the module comment); re-importing the same files changes nothing. */
export function importFills(db: ServiceDb, options: ImportOptions): ImportResult {
  checkOptions(options);
  const account = options.account === undefined ? null : accountField('--account', options.account);
  const result: ImportResult = {
    imported: 0,
    duplicates: 0,
    rejected: [],
    warnings: [],
    unreadable: [],
    positions: 0,
    accounts: [],
    statistics: null,
  };
  const files = options.files.flatMap((file) => {
    const parsed = readFills(file, account, result);
    return parsed ? [{ file, parsed }] : [];
  });
  db.transaction(() => storeAndRebuild(db, options, files, result))();
  return result;
}

function checkOptions(options: ImportOptions): void {
  if (!PROTOCOL_PATTERN.test(options.protocol))
    throw new Error(`protocol must be UPPER_SNAKE_CASE, not '${options.protocol}'`);
  const leverage = options.leverage;
  if (leverage !== undefined && !(Number.isFinite(leverage) && leverage > 0))
    throw new Error(`leverage must be a number greater than 0, not ${leverage}`);
}

/** Reads and parses one file; an unreadable file is noted in `result` and gives null. */
function readFills(file: ImportFile, account: string | null, result: ImportResult): ParsedFile | null {
  try {
    const text = readFileSync(file.path, 'utf8');
    // --account wins over the file name: it is the one the user typed for this run.
    const owner = account ?? accountInFileName(basename(file.path));
    const parsed = file.format === 'csv' ? parseFillsCsv(text, owner) : parseJson(text, owner);
    const note = (n: { line: number; reason: string }) => ({ file: file.path, ...n });
    result.rejected.push(...parsed.rejected.map(note));
    result.warnings.push(...parsed.warnings.map(note));
    return parsed;
  } catch (error) {
    // A FileError (not JSON, no header...) or a system error (no such file, a folder...).
    if (!(error instanceof FileError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
    result.unreadable.push({ file: file.path, reason: (error as Error).message });
    return null;
  }
}

function parseJson(text: string, account: string | null): ParsedFile {
  if (account === null)
    throw new FileError(
      'no account: the venue does not name the user; pass --account or name the file after the address',
    );
  return parseFillsJson(text, account);
}

/** One (account, coin) of the protocol; the string form keys sets. */
interface Series {
  account: string;
  coin: string;
}
const seriesName = (s: Series): string => JSON.stringify([s.account, s.coin]);

function storeAndRebuild(
  db: ServiceDb,
  options: ImportOptions,
  files: { file: ImportFile; parsed: ParsedFile }[],
  result: ImportResult,
): void {
  const { leverage, changed } = settleLeverage(db, options.protocol, options.leverage);
  const stored = storeFills(db, options.protocol, files, result);
  const affected = changed ? storedSeries(db, options.protocol) : stored.added;
  for (const s of affected.values())
    result.positions += rebuildStoredSeries(db, options.protocol, s, leverage);
  result.warnings.push(...midPositionWarnings(db, options.protocol, stored.batch));
  result.accounts = [...new Set([...stored.batch.values()].map((b) => b.fill.account))].sort();
  if (affected.size > 0) result.statistics = recomputeAll(db, options.nowMs);
}

/** The fills of this run by key, with their file, for warnings. */
type Batch = Map<string, { file: string; fill: ParsedFill }>;

function storeFills(
  db: ServiceDb,
  protocol: string,
  files: { file: ImportFile; parsed: ParsedFile }[],
  result: ImportResult,
): { added: Map<string, Series>; batch: Batch } {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO fills (key, protocol, account, coin, time_ms, seq, is_buy, price, size_tokens, fee,
       closed_pnl, is_liquidation, tx_hash, source, tid, start_position)
     VALUES (@key, @protocol, @account, @coin, @timeMs, @seq, @isBuy, @price, @sizeTokens, @fee, @closedPnl,
       @isLiquidation, @txHash, @source, @tid, @startPosition)`,
  );
  let seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) FROM fills').pluck().get() as number) + 1;
  const added = new Map<string, Series>();
  const batch: Batch = new Map();
  for (const { file, parsed } of files) {
    // The feed's key for the same fill (positions/fill-keys.ts); tid-less twins numbered per file.
    const keyOf = fillKeyer(protocol);
    for (const fill of parsed.fills) {
      const key = keyOf(fill);
      batch.set(key, { file: file.path, fill });
      if (
        insert.run(storedRow(fill, { key, protocol, seq, source: `${basename(file.path)}:${fill.line}` }))
          .changes === 0
      ) {
        result.duplicates += 1;
        continue;
      }
      seq += 1;
      result.imported += 1;
      added.set(seriesName(fill), { account: fill.account, coin: fill.coin });
    }
  }
  return { added, batch };
}

/** The named parameters of INSERT_FILL for one fill. */
function storedRow(fill: ParsedFill, extra: { key: string; protocol: string; seq: number; source: string }) {
  return {
    ...extra,
    account: fill.account,
    coin: fill.coin,
    timeMs: fill.timeMs,
    isBuy: fill.isBuy ? 1 : 0,
    price: fill.price,
    sizeTokens: fill.sizeTokens,
    fee: fill.fee,
    closedPnl: fill.closedPnl,
    isLiquidation: fill.isLiquidation ? 1 : 0,
    txHash: fill.txHash,
    tid: tidNumber(fill.tid),
    startPosition: fill.startPosition,
  };
}

/** The venue's trade id as the `tid` column keeps it (a whole number; another text orders nothing). */
function tidNumber(tid: string | null): number | null {
  if (tid === null || !/^\d+$/.test(tid)) return null;
  const value = Number(tid);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * The assumed leverage of the protocol's imports, kept in `meta`: a run that changes it rebuilds
 * every imported series of the protocol, so positions never mix two assumptions.
 */
function settleLeverage(db: ServiceDb, protocol: string, requested: number | undefined) {
  const key = `import_assumed_leverage:${protocol}`;
  const stored = readMeta(db, key);
  const previous = stored === null ? 1 : Number(stored);
  const leverage = requested ?? previous;
  if (requested !== undefined && String(requested) !== stored) writeMeta(db, key, String(requested));
  return { leverage, changed: leverage !== previous };
}

function storedSeries(db: ServiceDb, protocol: string): Map<string, Series> {
  const rows = db
    .prepare('SELECT DISTINCT account, coin FROM fills WHERE protocol = ? ORDER BY account, coin')
    .all(protocol) as Series[];
  return new Map(rows.map((s) => [seriesName(s), s]));
}

/** Replaces the series' positions and orders with those rebuilt from all its stored fills. */
function rebuildStoredSeries(db: ServiceDb, protocol: string, s: Series, leverage: number): number {
  const indexToken = indexTokenOf(db, protocol, s.coin);
  db.prepare(
    'INSERT OR IGNORE INTO tokens (protocol, symbol, index_token, is_forex, max_leverage) VALUES (?, ?, ?, 0, ?)',
  ).run(protocol, s.coin, indexToken, IMPORTED_TOKEN_MAX_LEVERAGE);
  const fills = db.prepare(SERIES_FILLS).all(protocol, s.account, s.coin) as StoredFill[];
  const series = { account: s.account, protocol, symbol: s.coin, indexToken };
  const rebuilt = rebuildSeries(series, fills.map(ledgerFill), { assumedLeverage: leverage });
  // The series owns every position of (account, protocol, index token): the old ones go, orders first.
  const where = 'protocol = ? AND account = ? AND index_token = ?';
  db.prepare(`DELETE FROM orders WHERE position_id IN (SELECT id FROM positions WHERE ${where})`).run(
    protocol,
    s.account,
    indexToken,
  );
  db.prepare(`DELETE FROM positions WHERE ${where}`).run(protocol, s.account, indexToken);
  const write = positionWriters(db);
  for (const position of rebuilt.positions) write.position(position);
  for (const order of rebuilt.orders) write.order(order);
  return rebuilt.positions.length;
}

/**
 * The index token of a coin: the one the store lists for (protocol, symbol), else the venue feed's
 * for its protocol (HYPERLIQUID-<COIN>, so that imported and fed fills make one series), else one
 * derived from protocol and symbol.
 */
function indexTokenOf(db: ServiceDb, protocol: string, coin: string): string {
  const listed = db
    .prepare('SELECT index_token FROM tokens WHERE protocol = ? AND symbol = ?')
    .pluck()
    .get(protocol, coin) as string | undefined;
  if (listed !== undefined) return listed;
  return protocol === HYPERLIQUID_PROTOCOL ? hyperliquidIndexToken(coin) : indexTokenAddress(protocol, coin);
}

/**
 * A series whose earliest stored fill says the account already held a position before it
 * (startPosition ≠ 0) is missing its start (the venue answers only the latest fills): the ledger
 * starts from 0 anyway, so say so.
 */
function midPositionWarnings(db: ServiceDb, protocol: string, batch: Batch): ImportNote[] {
  const first = db.prepare(`${SERIES_FILLS} LIMIT 1`);
  const notes: ImportNote[] = [];
  const seen = new Set<string>();
  for (const { fill } of batch.values()) {
    if (seen.has(seriesName(fill))) continue;
    seen.add(seriesName(fill));
    const head = first.get(protocol, fill.account, fill.coin) as StoredFill | undefined;
    const own = head && batch.get(head.key);
    const start = own?.fill.startPosition;
    if (!own || start === null || start === undefined || Number(start) === 0) continue;
    notes.push({
      file: own.file,
      line: own.fill.line,
      reason: `${fill.coin}: the history starts inside a position (startPosition ${start}); earlier fills are missing, so the first position is rebuilt from 0`,
    });
  }
  return notes;
}

/** One account's FULL statistic record on the protocol, and its open positions, for the report. */
export interface AccountSummary {
  account: string;
  totalTrade: number;
  winRate: number;
  realisedPnl: number;
  pnl: number;
  openPositions: number;
}

/** The FULL-window summary of `accounts` on `protocol` (zeros when an account has no closed position). */
export function statisticsSummary(db: ServiceDb, protocol: string, accounts: string[]): AccountSummary[] {
  const record = db.prepare(
    `SELECT "totalTrade" AS totalTrade, "winRate" AS winRate, "realisedPnl" AS realisedPnl, pnl
     FROM statistics WHERE protocol = ? AND account = ? AND type = 'FULL' AND gen_to IS NULL`,
  );
  const open = db
    .prepare("SELECT COUNT(*) FROM positions WHERE protocol = ? AND account = ? AND status = 'OPEN'")
    .pluck();
  return accounts.map((account) => {
    const r = record.get(protocol, account) as Omit<AccountSummary, 'account' | 'openPositions'> | undefined;
    return {
      account,
      ...(r ?? { totalTrade: 0, winRate: 0, realisedPnl: 0, pnl: 0 }),
      openPositions: open.get(protocol, account) as number,
    };
  });
}
