import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/** A cell of an exported table. */
export type CsvCell = string | number | boolean | null;

const NUMBER_TEXT = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** Text a spreadsheet would run as a formula (OWASP "CSV injection"); signed numbers are kept. */
const isFormulaLike = (text: string): boolean =>
  /^[=@\t\r]/.test(text) || (/^[+-]./s.test(text) && !NUMBER_TEXT.test(text));

/**
 * One field, RFC 4180: quoted when it holds a quote, a comma, CR or LF, with quotes doubled.
 * Text that a spreadsheet would evaluate (`=…`, `+…`, `@…`, `-…` that is not a number) gets a
 * leading apostrophe, so opening an export never runs what a trader's name or a title held.
 */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell !== 'string') return String(cell);
  const text = isFormulaLike(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: fields joined by commas, ended by CRLF (RFC 4180). */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** Rows per chunk between progress reports and yields to the event loop. */
const CHUNK_ROWS = 2_000;

/**
 * The UTF-8 byte-order mark every export starts with: without it Excel reads a CSV in the
 * system's legacy code page, and a trader's name or a token symbol in another script is garbled.
 */
export const UTF8_BOM = '\uFEFF';

/** Thrown by `writeCsv` when its signal aborts; the partial file is gone by then. */
export class ExportCancelledError extends Error {
  constructor() {
    super('The export was cancelled.');
    this.name = 'ExportCancelledError';
  }
}

/** Lets the event loop run (a cancel call, other IPC) between chunks of a long export. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Writes a table as a CSV file: a UTF-8 byte-order mark, the header, then the rows, into
 * `<path>.partial`, renamed to `path` when complete (a cancelled or failed export never leaves
 * half a file under the name, nor the partial file). `onProgress` is called after each chunk of
 * rows; `signal` cancels between chunks (ExportCancelledError).
 */
export async function writeCsv(
  path: string,
  columns: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  try {
    out.write(UTF8_BOM + csvLine(columns));
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      if (signal?.aborted) throw new ExportCancelledError();
      const chunk = rows
        .slice(start, start + CHUNK_ROWS)
        .map(csvLine)
        .join('');
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
      onProgress?.(Math.min(start + CHUNK_ROWS, rows.length), rows.length);
      if (signal) await yieldToLoop();
    }
    if (signal?.aborted) throw new ExportCancelledError();
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await rename(partial, path);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
