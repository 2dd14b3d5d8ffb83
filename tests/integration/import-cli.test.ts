// The import command end to end: a real process on a temporary database, its report and exit codes.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceDatabase } from '../../src/service/store/database';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JSON_FILE = 'tests/fixtures/fills/0x7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b.json';
const CSV_FILE = 'tests/fixtures/fills/trades.csv';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-import-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `cli.ts import …args` from the repository root; resolves with its exit code and output. */
function runImport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/service/cli.ts', 'import', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const REJECTED = [
  'Rejected rows:',
  `${JSON_FILE}:2: fill #1: side: 'X' is not one of B/A, Bid/Ask, buy/sell`,
  `${JSON_FILE}:156: fill #10: dir: 'Buy' is a spot fill; only perpetual fills make positions`,
  `${CSV_FILE}:8: side: 'hold' is not one of B/A, Bid/Ask, buy/sell`,
  `${CSV_FILE}:9: time: 'yesterday' is neither ISO 8601 nor epoch ms`,
  `${CSV_FILE}:1: warning: column 'Note' ignored`,
];
const STATISTICS = [
  'Statistics on HYPERLIQUID, all time (FULL):',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC: 2 closed, win rate 100.00 %, realised PnL 95.00, PnL 93.70, 1 open',
  '0x7a8b9C0d1e2f3a4B5C6d7E8F9A0B1c2d3e4F5a6b: 3 closed, win rate 33.33 %, realised PnL 5.00, PnL 2.45, 1 open',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906: 1 closed, win rate 0.00 %, realised PnL -600.00, PnL -606.30, 0 open',
];

describe('npm run service -- import', () => {
  it('imports, reports every rejected row as file:line: reason, then the statistics; again changes nothing', async () => {
    const db = join(dir, 'service.db');
    const first = await runImport('--db', db, '--protocol', 'HYPERLIQUID', JSON_FILE, CSV_FILE);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trimEnd().split('\n')).toEqual([
      'Imported 17 fills into HYPERLIQUID (0 already there, 4 rejected) for 3 accounts; rebuilt 8 positions.',
      ...REJECTED,
      ...STATISTICS,
    ]);
    const again = await runImport('--db', db, '--protocol', 'HYPERLIQUID', JSON_FILE, CSV_FILE);
    expect(again.code).toBe(0);
    expect(again.stdout.trimEnd().split('\n')).toEqual([
      'Imported 0 fills into HYPERLIQUID (17 already there, 4 rejected) for 3 accounts; rebuilt 0 positions.',
      ...REJECTED,
      ...STATISTICS,
    ]);
    const store = openServiceDatabase(db);
    expect(store.prepare('SELECT COUNT(*) FROM positions').pluck().get()).toBe(8);
    store.close();
  });

  it('exits 1 when a file cannot be read, and still imports the others', async () => {
    const db = join(dir, 'unreadable.db');
    const missing = join(dir, 'missing.csv');
    const result = await runImport('--db', db, '--protocol', 'HYPERLIQUID', missing, CSV_FILE);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${missing}: cannot be read: ENOENT`));
    expect(result.stdout).toMatch(/^Imported 8 fills into HYPERLIQUID/);
  });

  it('exits 1 when every row is rejected', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'time,user,coin,side,px,sz\nnow,0x1,BTC,B,1,1\n');
    const result = await runImport('--db', join(dir, 'bad.db'), '--protocol', 'HL', bad);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${bad}:2: user: '0x1' is not an address (0x and 40 hex digits); time: 'now' is neither ISO 8601 nor epoch ms`,
    );
  });

  it('exits 2 for bad flags, naming the problem and the usage', async () => {
    const db = join(dir, 'flags.db');
    const cases: [string[], string][] = [
      [['--protocol', 'HYPERLIQUID', CSV_FILE], '--db FILE is required'],
      [['--db', db, '--protocol', 'hyperliquid', CSV_FILE], 'UPPER_SNAKE_CASE'],
      [['--db', db, '--protocol', 'HYPERLIQUID', '--leverage', '0', CSV_FILE], '--leverage must be'],
      [['--db', db, '--protocol', 'HYPERLIQUID', '--account', '0x12', CSV_FILE], '--account:'],
      [
        ['--db', db, '--protocol', 'HYPERLIQUID', 'fills.txt'],
        'fills.txt: the format comes from the extension',
      ],
      [['--db', db, '--protocol', 'HYPERLIQUID'], 'name at least one'],
      [['--db', db, '--protocol', 'HYPERLIQUID', '--bogus', CSV_FILE], "Unknown option '--bogus'"],
    ];
    const results = await Promise.all(cases.map(([args]) => runImport(...args)));
    results.forEach((result, i) => {
      expect(result.code, cases[i]?.[1]).toBe(2);
      expect(result.stderr).toContain(cases[i]?.[1]);
      expect(result.stderr).toContain('Usage: npm run service -- import --db FILE --protocol NAME');
    });
  });
});
