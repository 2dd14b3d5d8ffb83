// What both fill parsers produce, and the field readers they share. A reader throws FieldError with
// "<field>: <rule>", which becomes the reason of a rejected row.
import { getAddress } from 'viem';
import { DecimalError, toUnits, unitsToText } from '../../positions/units';

/** One fill as read from a file, before it is stored. */
export interface ParsedFill {
  /** The line of the file where the fill starts (1-based). */
  line: number;
  /** A checksummed address. */
  account: string;
  coin: string;
  timeMs: number;
  isBuy: boolean;
  price: number;
  /** Size in tokens, canonical decimal text (exact). */
  sizeTokens: string;
  fee: number;
  closedPnl: number | null;
  isLiquidation: boolean;
  txHash: string | null;
  /** The venue's trade id, when the source has one (the dedupe key). */
  tid: string | null;
  /** The signed position size before the fill, when the source tells (JSON `startPosition`). */
  startPosition: string | null;
}

/** A row or file note: where, and why. */
export interface LineNote {
  line: number;
  reason: string;
}

/** What a parser read from one file: the good fills, the rows it rejected, and warnings. */
export interface ParsedFile {
  fills: ParsedFill[];
  rejected: LineNote[];
  warnings: LineNote[];
}

/** The whole file cannot be read (not JSON, no header, no account...): nothing of it is imported. */
export class FileError extends Error {
  override name = 'FileError';
}

/** One field breaks one rule; the message is "<field>: <rule>" (several joined by "; "). */
export class FieldError extends Error {
  override name = 'FieldError';
  constructor(field: string, rule?: string) {
    super(rule === undefined ? field : `${field}: ${rule}`);
  }
}

/** Field readers by output key. */
type Readers<T> = { [K in keyof T]: () => T[K] };

/**
 * Runs every reader and reports all broken rules of the row at once, so one look at the report is
 * enough to fix a row.
 */
export function readFields<T>(readers: Readers<T>): T {
  const out: Partial<T> = {};
  const problems: string[] = [];
  for (const key of Object.keys(readers) as (keyof T)[]) {
    try {
      out[key] = readers[key]();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new FieldError(problems.join('; '));
  return out as T;
}

const show = (raw: unknown): string => (typeof raw === 'string' ? `'${raw}'` : JSON.stringify(raw));

/** The text of a string or number field; anything else breaks the field. */
function text(field: string, raw: unknown): string {
  if (typeof raw === 'string') return raw.trim();
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  throw new FieldError(field, raw === undefined ? 'is missing' : `${show(raw)} is not a number or text`);
}

/** A decimal amount as a number; `positive` requires > 0. */
export function decimalField(field: string, raw: unknown, rule: { positive?: boolean } = {}): number {
  const value = text(field, raw);
  let parsed: number;
  try {
    parsed = unitsToNumberChecked(value);
  } catch {
    throw new FieldError(field, `${show(raw)} is not a decimal number`);
  }
  if (rule.positive && !(parsed > 0)) throw new FieldError(field, `${show(raw)} must be greater than 0`);
  return parsed;
}

/** Money and prices may carry more decimals than token units: only the syntax is checked. */
function unitsToNumberChecked(value: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) throw new DecimalError(value);
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new DecimalError(value);
  return parsed;
}

/** An optional decimal: empty or absent gives `fallback`. */
export function optionalDecimal<T>(field: string, raw: unknown, fallback: T): number | T {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return fallback;
  return decimalField(field, raw);
}

/** A size in tokens: > 0, at most 18 decimals, returned as canonical exact text. */
export function sizeField(field: string, raw: unknown): string {
  const value = text(field, raw);
  let units: bigint;
  try {
    units = toUnits(value);
  } catch (error) {
    const rule = /decimals/.test((error as Error).message)
      ? 'has more than 18 decimals'
      : 'is not a decimal number';
    throw new FieldError(field, `${show(raw)} ${rule}`);
  }
  if (units <= 0n) throw new FieldError(field, `${show(raw)} must be greater than 0`);
  return unitsToText(units);
}

const SIDES: Record<string, boolean> = { b: true, bid: true, buy: true, a: false, ask: false, sell: false };

/** Buy (true) or sell (false): B/A, Bid/Ask, buy/sell, in any case. */
export function sideField(field: string, raw: unknown): boolean {
  const side = typeof raw === 'string' ? SIDES[raw.trim().toLowerCase()] : undefined;
  if (side === undefined) throw new FieldError(field, `${show(raw)} is not one of B/A, Bid/Ask, buy/sell`);
  return side;
}

/** Epoch ms before this are taken for epoch seconds by mistake (it is 1973-03-03). */
const EARLIEST_MS = 1e11;
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A time: epoch milliseconds (digits), or ISO 8601. An ISO time without a zone is read as UTC, so
 * the result does not depend on the machine's time zone.
 */
export function timeField(field: string, raw: unknown): number {
  const value = text(field, raw);
  if (/^\d+$/.test(value)) return epochMs(field, value);
  const ms = isoMs(value);
  if (ms === null) throw new FieldError(field, `${show(raw)} is neither ISO 8601 nor epoch ms`);
  return ms;
}

function isoMs(value: string): number | null {
  const m = ISO_TIME.exec(value);
  if (!m) return null;
  const [, year, month, day, clock, zone] = m;
  // Date.parse rolls 2024-02-30 over to March 1st: check the calendar date first.
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  const offset = (zone ?? 'Z').toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${year}-${month}-${day}T${clock ?? '00:00'}${offset}`);
  return Number.isFinite(ms) ? ms : null;
}

function epochMs(field: string, value: string): number {
  const ms = Number(value);
  if (!Number.isSafeInteger(ms)) throw new FieldError(field, `'${value}' is too large for epoch ms`);
  if (ms < EARLIEST_MS)
    throw new FieldError(field, `'${value}' is not epoch milliseconds (seconds? multiply by 1000)`);
  return ms;
}

/** true/false/1/0 in any case; empty or absent is false. */
export function booleanField(field: string, raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === '' || typeof raw === 'boolean') return raw === true;
  const value = String(raw).trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new FieldError(field, `${show(raw)} is not one of true, false, 1, 0 or empty`);
}

/** A 0x address of 40 hex digits, in any case; returned checksummed. */
export function accountField(field: string, raw: unknown): string {
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!/^0x[0-9a-fA-F]{40}$/.test(value))
    throw new FieldError(field, `${show(raw)} is not an address (0x and 40 hex digits)`);
  // Lower-cased first: a mixed-case address with a wrong checksum is still the same account.
  return getAddress(value.toLowerCase());
}

const COIN = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,39}$/;

/**
 * A perpetual's symbol as the venue spells it (case kept: "kPEPE", "xyz:CRWV"). Spot markets
 * ("@107", "PURR/USDC") are refused: spot fills make no positions.
 */
export function coinField(field: string, raw: unknown): string {
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (value.startsWith('@') || value.includes('/'))
    throw new FieldError(field, `${show(raw)} is a spot market; only perpetual fills make positions`);
  if (!COIN.test(value))
    throw new FieldError(field, `${show(raw)} is not a symbol (letters, digits and : . _ -, up to 40)`);
  return value;
}

/** The first 0x address (40 hex digits) in a file's name, checksummed, or null. */
export function accountInFileName(name: string): string | null {
  const match = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/.exec(name);
  return match ? getAddress(match[0].toLowerCase()) : null;
}
