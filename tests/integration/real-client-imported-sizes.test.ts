// The real client's run imports the demo's trades again as venue fills (docs/real-clients.md). Its
// trader page showed open positions and history rows worth $0.00: dust positions of 1e-18 token
// that the export's independently rounded sizes left behind. Over HTTP, the imported trader's
// positions are the demo's, with their sizes, and none is dust.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFills } from '../../src/service/market/importers/import';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { DEMO_SEED } from '../../src/service/preparation/demo-world';
import { demoTradesAsFills } from '../../src/service/real-client/demo-fills';
import { openServiceDatabase } from '../../src/service/store/database';
import { apiKeyFor } from '../support/credentials';
import { postJson, startTestService, type RunningService } from '../support/service';

const AS = 'GMX_V2';
const TRADERS = 3;
const NOW = Date.UTC(2026, 2, 2, 12);
let svc: RunningService;
let key: string;
let dir: string;
let source: string;
let accounts: string[];

interface WirePosition {
  pair: string;
  isLong: boolean;
  size: number;
  sizeInToken: number;
  status: string;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-demo-fills-'));
  const dbPath = join(dir, 'service.db');
  // The demo seed with fewer traders and days, imported as the run does (scripts/e2e-real-client.ts).
  const db = openServiceDatabase(dbPath);
  seedDemoWorld(db, { seed: DEMO_SEED, nowMs: NOW, traders: 40, days: 30 });
  const fills = demoTradesAsFills(db, TRADERS);
  source = fills.protocol;
  const csv = join(dir, 'fills.csv');
  writeFileSync(csv, fills.csv);
  const result = importFills(db, {
    protocol: AS,
    leverage: 5,
    files: [{ path: csv, format: 'csv' }],
    nowMs: NOW,
  });
  expect(result.rejected).toEqual([]);
  accounts = result.accounts;
  db.close();
  svc = await startTestService({ dbPath, demo: true });
  key = apiKeyFor(svc);
}, 120_000);
afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const opening = async (account: string) => {
  const res = await fetch(`${svc.url}/${AS}/position/opening/${account}?limit=500`, {
    headers: { 'x-api-key': key },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as WirePosition[];
};
const history = async (account: string) => {
  const { status, body } = await postJson(
    `${svc.url}/${AS}/position/filter/${account}`,
    { queries: [{ fieldName: 'status', value: 'CLOSE' }], pagination: { limit: 500 } },
    { 'x-api-key': key },
  );
  expect(status).toBe(200);
  return (body as { data: WirePosition[] }).data;
};
/** The source trader's positions of one status, as the demo world stored them. */
const demoPositions = (account: string, status: string) =>
  svc.service.db
    .prepare(`SELECT COUNT(*) FROM positions WHERE protocol = ? AND account = ? AND status = ?`)
    .pluck()
    .get(source, account, status) as number;

describe('the demo trades imported as venue fills, as the real client reads them', () => {
  it('imports the busiest traders', () => {
    expect(accounts).toHaveLength(TRADERS);
  });

  it('GET /{protocol}/position/opening/{account}: the demo trader open positions, none worth $0', async () => {
    for (const account of accounts) {
      const open = await opening(account);
      expect(open.filter((p) => p.size < 0.01)).toEqual([]);
      expect(open).toHaveLength(demoPositions(account, 'OPEN'));
    }
  });

  it('POST /{protocol}/position/filter/{account}: closed positions, none worth $0', async () => {
    for (const account of accounts) {
      const closed = await history(account);
      expect(closed.length).toBe(Math.min(500, demoPositions(account, 'CLOSE')));
      expect(closed.filter((p) => p.size < 0.01)).toEqual([]);
    }
  });
});
