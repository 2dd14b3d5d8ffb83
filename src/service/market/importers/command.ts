// `npm run service -- import --db FILE --protocol NAME [--leverage N] [--account ADDRESS] FILE...`
import { parseArgs } from 'node:util';
import { openServiceDatabase } from '../../store/database';
import { accountField, FieldError } from './fields';
import {
  PROTOCOL_PATTERN,
  formatOfPath,
  importFills,
  statisticsSummary,
  type ImportFile,
  type ImportResult,
} from './import';

/** The import command's usage line. */
export const IMPORT_USAGE =
  'npm run service -- import --db FILE --protocol NAME [--leverage N] [--account ADDRESS] FILE.json|FILE.csv...';

const options = {
  db: { type: 'string' },
  protocol: { type: 'string' },
  leverage: { type: 'string' },
  account: { type: 'string' },
  help: { type: 'boolean' },
} as const;

class UsageError extends Error {}

interface ImportCommand {
  db: string;
  protocol: string;
  leverage?: number;
  account?: string;
  files: ImportFile[];
}

/** Where the command writes: the console, or a test's buffers. */
export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleOutput: CommandOutput = { out: (l) => console.log(l), err: (l) => console.error(l) };

/**
 * Runs the import command on `argv` (the arguments after `import`); returns the exit code: 0 when
 * something was imported or every good row was a duplicate, 1 when a file could not be read at all
 * or every row was rejected, 2 for bad flags.
 */
export function runImportCommand(
  argv: string[],
  io: CommandOutput = consoleOutput,
  nowMs = Date.now(),
): number {
  let command: ImportCommand | 'help';
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`copydesk service import: ${error.message}\nUsage: ${IMPORT_USAGE}`);
    return 2;
  }
  if (command === 'help') {
    io.out(`Usage: ${IMPORT_USAGE}`);
    return 0;
  }
  const db = openServiceDatabase(command.db);
  try {
    const result = importFills(db, { ...command, nowMs });
    report(io, command, result);
    printStatistics(io, db, command.protocol, result.accounts);
    return exitCode(result);
  } finally {
    db.close();
  }
}

function parseCommand(argv: string[]): ImportCommand | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.db === undefined) throw new UsageError('--db FILE is required: the database to import into');
  if (values.protocol === undefined || !PROTOCOL_PATTERN.test(values.protocol))
    throw new UsageError('--protocol NAME is required, in UPPER_SNAKE_CASE (e.g. HYPERLIQUID)');
  if (positionals.length === 0) throw new UsageError('name at least one .json or .csv file of fills');
  return {
    db: values.db,
    protocol: values.protocol,
    ...(values.leverage !== undefined && { leverage: leverageFlag(values.leverage) }),
    ...(values.account !== undefined && { account: accountFlag(values.account) }),
    files: positionals.map(fileArgument),
  };
}

function leverageFlag(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value > 1000)
    throw new UsageError('--leverage must be a number greater than 0 and at most 1000');
  return value;
}

function accountFlag(raw: string): string {
  try {
    return accountField('--account', raw);
  } catch (error) {
    if (error instanceof FieldError) throw new UsageError(error.message);
    throw error;
  }
}

function fileArgument(path: string): ImportFile {
  const format = formatOfPath(path);
  if (format === null) throw new UsageError(`${path}: the format comes from the extension, .json or .csv`);
  return { path, format };
}

function report(io: CommandOutput, command: ImportCommand, r: ImportResult): void {
  for (const u of r.unreadable) io.err(`${u.file}: cannot be read: ${u.reason}`);
  const accounts = `${r.accounts.length} account${r.accounts.length === 1 ? '' : 's'}`;
  io.out(
    `Imported ${r.imported} fill${r.imported === 1 ? '' : 's'} into ${command.protocol} ` +
      `(${r.duplicates} already there, ${r.rejected.length} rejected) for ${accounts}; ` +
      `rebuilt ${r.positions} position${r.positions === 1 ? '' : 's'}.`,
  );
  if (r.rejected.length > 0) io.out(`Rejected rows:`);
  for (const note of r.rejected) io.out(`${note.file}:${note.line}: ${note.reason}`);
  for (const note of r.warnings) io.out(`${note.file}:${note.line}: warning: ${note.reason}`);
}

function printStatistics(
  io: CommandOutput,
  db: Parameters<typeof statisticsSummary>[0],
  protocol: string,
  accounts: string[],
): void {
  if (accounts.length === 0) return;
  io.out(`Statistics on ${protocol}, all time (FULL):`);
  for (const s of statisticsSummary(db, protocol, accounts))
    io.out(
      `${s.account}: ${s.totalTrade} closed, win rate ${s.winRate.toFixed(2)} %, ` +
        `realised PnL ${s.realisedPnl.toFixed(2)}, PnL ${s.pnl.toFixed(2)}, ${s.openPositions} open`,
    );
}

/** 1 when a file was unreadable, or when rows were rejected and none was good (new or duplicate). */
function exitCode(r: ImportResult): number {
  if (r.unreadable.length > 0) return 1;
  return r.imported + r.duplicates === 0 && r.rejected.length > 0 ? 1 : 0;
}
