// Fills from JSON as the venue's info API answers `userFills` for one user: an array of
// {coin, px, sz, side: 'B'|'A', time, dir, closedPnl, fee, oid, tid, hash, crossed, startPosition,
// liquidation?}, numbers as strings. The answer does not name the user: the caller supplies it.
import {
  FieldError,
  FileError,
  booleanField,
  coinField,
  decimalField,
  optionalDecimal,
  readFields,
  sideField,
  sizeField,
  timeField,
  type LineNote,
  type ParsedFill,
  type ParsedFile,
} from './fields';

type JsonFill = Record<string, unknown>;

const isObject = (v: unknown): v is JsonFill => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The line on which each element of a top-level JSON array starts (text already known to parse).
 * JSON.parse keeps no positions, and "fill #7" alone is no help in a pretty-printed file.
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expecting = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (ch === '\n') line += 1;
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 1 && expecting && !/[\s,\]]/.test(ch)) {
      lines.push(line);
      expecting = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth += 1;
    else if (ch === ']' || ch === '}') depth -= 1;
    if ((ch === '[' && depth === 1) || (ch === ',' && depth === 1)) expecting = true;
  }
  return lines;
}

/**
 * A fill liquidates `account` when its `liquidation` object names the account as `liquidatedUser`.
 * The venue also puts that object on the counterparty's fill (the maker who absorbed it, or the
 * backstop vault), naming someone else: that fill is not a liquidation of this account. Without
 * the object, a `dir` containing "Liquidat" ("Liquidated Isolated Long") marks one.
 */
export function isLiquidationOf(fill: JsonFill, account: string): boolean {
  const liq = fill.liquidation;
  if (liq !== undefined && liq !== null && liq !== false) {
    if (isObject(liq) && typeof liq.liquidatedUser === 'string')
      return liq.liquidatedUser.toLowerCase() === account.toLowerCase();
    return isObject(liq) || booleanField('liquidation', liq);
  }
  return typeof fill.dir === 'string' && /liquidat/i.test(fill.dir);
}

const optionalText = (raw: unknown): string | null =>
  typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : typeof raw === 'number' ? String(raw) : null;

function readFill(raw: unknown, account: string, line: number): ParsedFill {
  if (!isObject(raw)) throw new FieldError('fill', 'is not an object');
  if (raw.dir === 'Buy' || raw.dir === 'Sell')
    throw new FieldError('dir', `'${raw.dir}' is a spot fill; only perpetual fills make positions`);
  return readFields<ParsedFill>({
    line: () => line,
    account: () => account,
    coin: () => coinField('coin', raw.coin),
    timeMs: () => timeField('time', raw.time),
    isBuy: () => sideField('side', raw.side),
    price: () => decimalField('px', raw.px, { positive: true }),
    sizeTokens: () => sizeField('sz', raw.sz),
    fee: () => optionalDecimal('fee', raw.fee, 0),
    closedPnl: () => optionalDecimal('closedPnl', raw.closedPnl, null),
    isLiquidation: () => isLiquidationOf(raw, account),
    txHash: () => optionalText(raw.hash),
    tid: () => optionalText(raw.tid),
    startPosition: () => startPositionOf(raw.startPosition),
  });
}

function startPositionOf(raw: unknown): string | null {
  const text = optionalText(raw);
  if (text !== null) decimalField('startPosition', text);
  return text;
}

/**
 * Reads a userFills answer for `account`, in time order. The venue lists the newest fill first
 * across milliseconds, but the fills of one millisecond in the order they executed
 * (docs/importing.md#json-the-venues-userfills-answer): the file is sorted by time, stably, so a millisecond's
 * fills keep the file's order whichever way the file runs. Rejected rows name the element
 * ("fill #3", counted in the file) and its line.
 */
export function parseFillsJson(text: string, account: string): ParsedFile {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw new FileError(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(items)) throw new FileError('not a JSON array of fills (the userFills answer)');
  const lines = arrayElementLines(text);
  const order = items.map((_, index) => index);
  // Elements without a readable time are rejected below: where they sort does not matter.
  const times = items.map((item) => {
    const time = isObject(item) ? Number(item.time) : Number.NaN;
    return Number.isFinite(time) ? time : Number.MAX_VALUE;
  });
  order.sort((a, b) => (times[a] as number) - (times[b] as number) || a - b);
  const fills: ParsedFill[] = [];
  const rejected: (LineNote & { index: number })[] = [];
  for (const index of order) {
    const line = lines[index] ?? 1;
    try {
      fills.push(readFill(items[index], account, line));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      rejected.push({ index, line, reason: `fill #${index + 1}: ${error.message}` });
    }
  }
  rejected.sort((a, b) => a.index - b.index);
  return { fills, rejected: rejected.map(({ line, reason }) => ({ line, reason })), warnings: [] };
}
