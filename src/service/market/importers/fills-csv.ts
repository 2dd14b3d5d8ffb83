// Fills from CSV: a header naming some of time, user|account, coin, side, px, sz, fee, closedPnl,
// liquidation (any case, any order); other columns are ignored with a warning.
import {
  FieldError,
  FileError,
  accountField,
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

/** One CSV record and the line it starts on; `error` when its quotes never close. */
export interface CsvRecord {
  line: number;
  fields: string[];
  error?: string;
}

/**
 * Splits CSV text into records, RFC 4180 style: a quoted field may hold commas, newlines and quotes
 * written twice (""). A byte order mark is skipped, CRLF and LF both end a record, blank lines are
 * dropped.
 */
export function csvRecords(text: string): CsvRecord[] {
  const scan = { records: [] as CsvRecord[], fields: [] as string[], field: '', line: 1, start: 1 };
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (ch === '\n') scan.line += 1;
    if (quoted) {
      const doubled = ch === '"' && text[i + 1] === '"';
      if (ch !== '"' || doubled) scan.field += ch;
      if (doubled) i += 1;
      else if (ch === '"') quoted = false;
    } else if (ch === '"' && scan.field === '') {
      quoted = true;
    } else if (ch === ',') {
      scan.fields.push(scan.field);
      scan.field = '';
    } else if (ch === '\n' || ch === '\r') {
      endRecord(scan, ch === '\r' && text[i + 1] !== '\n');
    } else {
      scan.field += ch;
    }
  }
  if (quoted) scan.records.push({ line: scan.start, fields: [], error: 'a quoted field is never closed' });
  else endRecord(scan, false);
  return scan.records;
}

/** Ends the record being scanned; a lone CR ends a line too (the LF of CRLF does the counting). */
function endRecord(
  scan: { records: CsvRecord[]; fields: string[]; field: string; line: number; start: number },
  loneCr: boolean,
): void {
  if (loneCr) scan.line += 1;
  const fields = [...scan.fields, scan.field];
  if (!(fields.length === 1 && fields[0]?.trim() === '')) scan.records.push({ line: scan.start, fields });
  scan.fields = [];
  scan.field = '';
  scan.start = scan.line;
}

const KNOWN = ['time', 'user', 'account', 'coin', 'side', 'px', 'sz', 'fee', 'closedpnl', 'liquidation'];
const REQUIRED = ['time', 'coin', 'side', 'px', 'sz'];

/** Column name (lower case) → index, after checking the header. */
type Columns = Map<string, number>;

function readHeader(header: CsvRecord | undefined, warnings: LineNote[]): Columns {
  if (!header || header.error) throw new FileError('no header line');
  const columns: Columns = new Map();
  header.fields.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (columns.has(name)) throw new FileError(`the header names column '${raw.trim()}' twice`);
    columns.set(name, index);
    if (!KNOWN.includes(name)) warnings.push({ line: header.line, reason: `column '${raw.trim()}' ignored` });
  });
  const missing = REQUIRED.filter((c) => !columns.has(c));
  if (missing.length > 0)
    throw new FileError(`the header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (columns.has('user') && columns.has('account'))
    throw new FileError('the header has both user and account columns; keep one');
  return columns;
}

/**
 * Reads CSV fills. `defaultAccount` serves rows whose user/account cell is empty, and every row
 * when there is no such column. A bad row is rejected with its line and reason; the others are read.
 */
export function parseFillsCsv(text: string, defaultAccount: string | null): ParsedFile {
  const [header, ...rows] = csvRecords(text);
  const warnings: LineNote[] = [];
  const columns = readHeader(header, warnings);
  const accountColumn = columns.has('user') ? 'user' : columns.has('account') ? 'account' : null;
  if (accountColumn === null && defaultAccount === null)
    throw new FileError('no user or account column: pass --account, or name the file after the address');
  const fills: ParsedFill[] = [];
  const rejected: LineNote[] = [];
  for (const record of rows) {
    try {
      fills.push(readRow(record, columns, header?.fields.length ?? 0, accountColumn, defaultAccount));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      rejected.push({ line: record.line, reason: error.message });
    }
  }
  return { fills, rejected, warnings };
}

function readRow(
  record: CsvRecord,
  columns: Columns,
  width: number,
  accountColumn: string | null,
  defaultAccount: string | null,
): ParsedFill {
  if (record.error) throw new FieldError('row', record.error);
  if (record.fields.length !== width)
    throw new FieldError('row', `has ${record.fields.length} fields, the header has ${width}`);
  const cell = (name: string): string | undefined => {
    const index = columns.get(name);
    return index === undefined ? undefined : record.fields[index];
  };
  return readFields<ParsedFill>({
    line: () => record.line,
    account: () => rowAccount(accountColumn, accountColumn ? cell(accountColumn) : undefined, defaultAccount),
    coin: () => coinField('coin', cell('coin')),
    timeMs: () => timeField('time', cell('time')),
    isBuy: () => sideField('side', cell('side')),
    price: () => decimalField('px', cell('px'), { positive: true }),
    sizeTokens: () => sizeField('sz', cell('sz')),
    fee: () => optionalDecimal('fee', cell('fee'), 0),
    closedPnl: () => optionalDecimal('closedPnl', cell('closedpnl'), null),
    isLiquidation: () => booleanField('liquidation', cell('liquidation')),
    txHash: () => null,
    tid: () => null,
    startPosition: () => null,
  });
}

function rowAccount(column: string | null, raw: string | undefined, fallback: string | null): string {
  if (raw !== undefined && raw.trim() !== '') return accountField(column ?? 'user', raw);
  if (fallback !== null) return fallback;
  throw new FieldError(column ?? 'user', 'is empty and no --account was given');
}
