import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ExportCancelledError,
  UTF8_BOM,
  csvField,
  csvLine,
  writeCsv,
  type CsvCell,
} from '../../../../../src/main/core/export/csv';
import type { DomainDeps } from '../../../../../src/main/core/handlers/handlers';
import { createExportHandlers } from '../../../../../src/main/core/handlers/export';
import { exportsFolderPicker } from '../../../../../src/main/core/export/exports-folder';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A strict RFC 4180 reader, to read back what the writer wrote. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else if (c === '"' || c === '\n' || c === '\r') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

describe('CSV fields (RFC 4180)', () => {
  it('quotes fields with quotes, commas or line breaks, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
    expect(csvField(null)).toBe('');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(true)).toBe('true');
    expect(csvLine(['a', 1, null, false])).toBe('a,1,,false\r\n');
  });

  it('defuses text a spreadsheet would run as a formula, and keeps signed numbers and a lone dash', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('+1+2')).toBe("'+1+2");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+3e5')).toBe('+3e5');
    expect(csvField('-')).toBe('-');
  });

  it('reads back exactly what it wrote, whatever the text', () => {
    const cell = fc.oneof(
      fc
        .string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é', 'x') })
        .filter((s) => !/^[=@+\-\t\r]/.test(s)),
      fc.integer(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 20 }), (rows) => {
        const text = csvLine(['a', 'b', 'c']) + rows.map(csvLine).join('');
        const back = parseCsv(text);
        expect(back).toEqual([
          ['a', 'b', 'c'],
          ...rows.map((r) => r.map((v) => (v === null ? '' : String(v)))),
        ]);
      }),
    );
  });
});

describe('writeCsv', () => {
  it('writes the header and the rows, reporting progress, and leaves no partial file', async () => {
    const path = join(dir, 'table.csv');
    const rows: CsvCell[][] = Array.from({ length: 4500 }, (_, i) => [i, `name, ${i}`, i % 2 === 0]);
    const progress: [number, number][] = [];
    await writeCsv(path, ['n', 'name', 'even'], rows, (done, total) => progress.push([done, total]));
    const back = parseCsv(readFileSync(path, 'utf8'));
    expect(back).toHaveLength(4501);
    expect(back[1]).toEqual(['0', 'name, 0', 'true']);
    expect(back.at(-1)).toEqual(['4499', 'name, 4499', 'false']);
    expect(progress).toEqual([
      [2000, 4500],
      [4000, 4500],
      [4500, 4500],
    ]);
    expect(existsSync(`${path}.partial`)).toBe(false);
  });

  it('starts with a UTF-8 byte-order mark, so spreadsheets read non-ASCII text', async () => {
    const path = join(dir, 'names.csv');
    await writeCsv(path, ['trader', 'pair'], [['Zürich “fund” 名前', 'ÉTH/USD']]);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    expect(parseCsv(text.slice(1))).toEqual([
      ['trader', 'pair'],
      ['Zürich “fund” 名前', 'ÉTH/USD'],
    ]);
  });

  it('stops between chunks when cancelled, leaving neither the file nor the partial one', async () => {
    const path = join(dir, 'cancelled.csv');
    const rows: CsvCell[][] = Array.from({ length: 10_000 }, (_, i) => [i]);
    const controller = new AbortController();
    const progress: number[] = [];
    const writing = writeCsv(
      path,
      ['n'],
      rows,
      (done) => {
        progress.push(done);
        controller.abort();
      },
      controller.signal,
    );
    await expect(writing).rejects.toBeInstanceOf(ExportCancelledError);
    expect(progress).toEqual([2000]);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.partial`)).toBe(false);
  });

  it('fails without leaving a file when the folder cannot be written', async () => {
    const path = join(dir, 'missing-folder', 'table.csv');
    await expect(writeCsv(path, ['a'], [[1]])).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(path)).toBe(false);
  });
});

describe('the exports folder', () => {
  it('saves under <dataDir>/exports with the suggested name, made unique', async () => {
    const pick = exportsFolderPicker(dir);
    const first = await pick('trades.csv');
    expect(first).toBe(join(dir, 'exports', 'trades.csv'));
    writeFileSync(first!, '');
    expect(await pick('trades.csv')).toBe(join(dir, 'exports', 'trades (2).csv'));
    writeFileSync(join(dir, 'exports', 'trades (2).csv'), '');
    expect(await pick('trades.csv')).toBe(join(dir, 'exports', 'trades (3).csv'));
    // A name with a path in it stays in the folder.
    expect(await pick('../../escape.csv')).toBe(join(dir, 'exports', 'escape.csv'));
    expect(readdirSync(join(dir, 'exports')).sort()).toEqual(['trades (2).csv', 'trades.csv']);
  });
});

describe('export:csv and export:cancel', () => {
  function handlers(onProgress: (done: number) => void) {
    const deps = {
      pickSavePath: exportsFolderPicker(join(dir, 'handler')),
      events: { emit: (_event: string, payload: { done: number }) => onProgress(payload.done) },
    } as unknown as DomainDeps;
    return createExportHandlers(deps);
  }
  const rows = Array.from({ length: 9_000 }, (_, i) => [i, `row ${i}`]);

  it('cancels the export under way: no file, and the answer says so', async () => {
    let cancelled: Promise<{ cancelled: boolean }> | null = null;
    const h = handlers((done) => {
      if (done > 0) cancelled ??= h['export:cancel']({});
    });
    const answer = await h['export:csv']({ suggestedName: 'long.csv', columns: ['n', 'label'], rows });
    expect(answer).toEqual({ path: null, rows: 0, cancelled: true });
    expect(await cancelled).toEqual({ cancelled: true });
    expect(readdirSync(join(dir, 'handler', 'exports'))).toEqual([]);
    // Nothing runs any more: a second cancel has nothing to stop, and the next export completes.
    expect(await h['export:cancel']({})).toEqual({ cancelled: false });
    const next = await h['export:csv']({ suggestedName: 'long.csv', columns: ['n', 'label'], rows });
    expect(next).toEqual({ path: join(dir, 'handler', 'exports', 'long.csv'), rows: 9_000 });
  });
});
