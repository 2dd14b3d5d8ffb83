import {
  closeSync,
  existsSync,
  fchmodSync,
  fstatSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './data-dir';

/** Size at which a log file is rotated, and how many rotated files are kept beside the current one. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;
export const LOG_KEEP = 3;

const REDACTED = '[redacted]';

/**
 * Secrets that must never reach a log, by their shape (docs/security.md, Logs): JWTs, the
 * service's API keys (`cdk_…`), 32-byte hex strings (a wallet's private key; a transaction hash
 * looks the same and is masked too), and the value of an `Authorization`, `X-Api-Key` or
 * `X-Admin-Key` header written out as text.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  /cdk_[A-Za-z0-9_-]{8,}/g,
  /\b(?:0x)?[0-9a-fA-F]{64}\b/g,
  /((?:authorization|x-api-key|x-admin-key|idempotency-key)["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',}]+/gi,
];

/** `text` with every secret-shaped part replaced by `[redacted]`. */
export function scrubSecrets(text: string): string {
  if (!mayHoldSecret(text)) return text;
  let out = text;
  for (const pattern of SECRET_PATTERNS)
    out = out.replace(pattern, (_match: string, prefix?: string) =>
      typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED,
    );
  return out;
}

/**
 * False only when no SECRET_PATTERNS can match: each needs `eyJ`, `cdk_`, a header name, or a run
 * of 64 hex digits. Most lines (every access line) hold none, and these checks cost a fifth of
 * running the four patterns (docs/statistics.md, "The columnar index", Around the query).
 */
function mayHoldSecret(text: string): boolean {
  return (
    text.includes('eyJ') || text.includes('cdk_') || SECRET_HEADER_NAME.test(text) || hasHexRun(text, 64)
  );
}
// Every header name of the last pattern contains one of these.
const SECRET_HEADER_NAME = /authorization|-key/i;

/**
 * True when `text` holds `length` hex digits in a row. Any `length` characters in a row hold one
 * whose index is `length - 1` modulo `length`, so only those are probed, and a run is measured
 * around a probe that is a hex digit.
 */
function hasHexRun(text: string, length: number): boolean {
  for (let i = length - 1; i < text.length; i += length) {
    if (!isHexDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isHexDigit(text.charCodeAt(start - 1))) start -= 1;
    let end = i + 1;
    while (end < text.length && isHexDigit(text.charCodeAt(end))) end += 1;
    if (end - start >= length) return true;
  }
  return false;
}

const isHexDigit = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);

export interface RotatingLogOptions {
  maxBytes?: number;
  keep?: number;
}

/**
 * A log file that rotates by size: `name.log` is written until the next line would pass
 * `maxBytes`, then it becomes `name.log.1` (`.1` becomes `.2`, …; past `keep` the oldest goes).
 * The folder is made 0700 and each file 0600. Lines are written synchronously, so a crash loses
 * none that was written; each line is scrubbed of secret-shaped text first. It has pino's stream
 * interface (`write(line)`), so Fastify's logger writes through it too.
 */
export class RotatingLogFile {
  readonly path: string;
  private fd: number | null = null;
  private size = 0;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(
    readonly dir: string,
    readonly name: string,
    options: RotatingLogOptions = {},
  ) {
    this.path = join(dir, `${name}.log`);
    this.maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
    this.keep = Math.max(1, options.keep ?? LOG_KEEP);
  }

  write(chunk: string): boolean {
    const line = scrubSecrets(chunk);
    const bytes = Buffer.byteLength(line);
    try {
      if (this.fd === null) this.open();
      if (this.size > 0 && this.size + bytes > this.maxBytes) {
        this.rotate();
        this.open();
      }
      writeSync(this.fd as number, line);
      this.size += bytes;
    } catch {
      // A log that cannot be written (disk full, folder removed) must not stop the program.
      this.closeQuietly();
    }
    return true;
  }

  close(): void {
    this.closeQuietly();
  }

  private open(): void {
    ensurePrivateDir(this.dir);
    this.fd = openSync(this.path, 'a', PRIVATE_FILE_MODE);
    // A file an older version left open to others is made 0600 too (the mode above is for new ones).
    if (process.platform !== 'win32') fchmodSync(this.fd, PRIVATE_FILE_MODE);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.closeQuietly();
    const rotated = (n: number) => `${this.path}.${n}`;
    if (existsSync(rotated(this.keep))) rmSync(rotated(this.keep), { force: true });
    for (let n = this.keep - 1; n >= 1; n--)
      if (existsSync(rotated(n))) renameSync(rotated(n), rotated(n + 1));
    if (existsSync(this.path)) renameSync(this.path, rotated(1));
  }

  private closeQuietly(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
    this.size = 0;
  }
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Field names whose values are never logged, whatever they hold. */
const SECRET_FIELDS =
  /^(authorization|x-api-key|x-admin-key|apikey|api_key|token|accesstoken|jwt|secret|password|privatekey|private_key|mnemonic|key|sign|signature)$/i;

/**
 * A structured (one JSON object a line) logger over a RotatingLogFile, for the core: `time`,
 * `level`, `name`, `msg` and the fields given; an `err` field is written with its message, stack
 * and cause. Fields named like secrets are replaced by `[redacted]`.
 */
export class FileLogger {
  constructor(
    private readonly file: RotatingLogFile,
    private readonly name: string,
  ) {}

  debug(msg: string, fields: Record<string, unknown> = {}): void {
    this.log('debug', msg, fields);
  }
  info(msg: string, fields: Record<string, unknown> = {}): void {
    this.log('info', msg, fields);
  }
  warn(msg: string, fields: Record<string, unknown> = {}): void {
    this.log('warn', msg, fields);
  }
  error(msg: string, fields: Record<string, unknown> = {}): void {
    this.log('error', msg, fields);
  }

  close(): void {
    this.file.close();
  }

  private log(level: Level, msg: string, fields: Record<string, unknown>): void {
    const entry = { time: new Date().toISOString(), level, name: this.name, msg, ...fields };
    let line: string;
    try {
      line = JSON.stringify(entry, (key, value: unknown) =>
        key !== '' && SECRET_FIELDS.test(key)
          ? REDACTED
          : value instanceof Error
            ? errorFields(value)
            : value,
      );
    } catch {
      line = JSON.stringify({ time: entry.time, level, name: this.name, msg });
    }
    this.file.write(`${line}\n`);
  }
}

/** An error as a log shows it: its name, message, code, stack and cause, down the cause chain. */
export function errorFields(error: Error, depth = 0): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(code !== undefined && { code }),
    stack: error.stack,
    ...(error.cause !== undefined &&
      depth < 5 && {
        cause: error.cause instanceof Error ? errorFields(error.cause, depth + 1) : String(error.cause),
      }),
  };
}

/** A logger writing `<dir>/<name>.log`, rotated by size. */
export function createFileLogger(dir: string, name: string, options: RotatingLogOptions = {}): FileLogger {
  return new FileLogger(new RotatingLogFile(dir, name, options), name);
}

/**
 * Copies what the core writes with `console.error` / `console.warn` (its failures, each with the
 * error) into the core's log as structured lines, still printing them too. Returns the undo.
 */
export function captureConsole(logger: FileLogger): () => void {
  const { error, warn } = console;
  const toEntry = (args: unknown[]) => {
    const err = args.find((a): a is Error => a instanceof Error);
    const msg = args
      .filter((a) => !(a instanceof Error))
      .map((a) => (typeof a === 'string' ? a : safeJson(a)))
      .join(' ');
    return { msg: msg || (err?.message ?? ''), fields: err ? { err } : {} };
  };
  console.error = (...args: unknown[]) => {
    const { msg, fields } = toEntry(args);
    logger.error(msg, fields);
    error.apply(console, args);
  };
  console.warn = (...args: unknown[]) => {
    const { msg, fields } = toEntry(args);
    logger.warn(msg, fields);
    warn.apply(console, args);
  };
  return () => {
    console.error = error;
    console.warn = warn;
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
