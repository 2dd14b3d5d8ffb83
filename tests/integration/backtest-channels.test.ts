// The core's backtest channels (src/main/core/handlers/backtest.ts) against the real local service
// over HTTP: a sweep sent in pieces answers exactly what the service's one whole sweep answers, and
// a cancel stops it between two pieces with what ran ranked (docs/ui.md, Backtest).
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { CoreEvents } from '../../src/main/core/events';
import { createBacktestHandlers } from '../../src/main/core/handlers/backtest';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { sweepRequestSchema, type SweepItem, type SweepResponse } from '../../src/shared/api/backtest';
import { postJson, type RunningService } from '../support/service';
import { apiKeyOf, FIXED_NOW, startCopyService } from '../support/copy-session';
import { profileFor } from '../support/statistics-harness';

const ADMIN = 'backtest-channels-admin-key-0123';
const P = 'NOVA_ARB';
const BTC = indexTokenAddress(P, 'BTC');
const ETH = indexTokenAddress(P, 'ETH');
const TRADERS = [getAddress('0x' + '5c'.repeat(20)), getAddress('0x' + '5d'.repeat(20))];
const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY = Math.floor(FIXED_NOW / DAY) * DAY;

let svc: RunningService;
let key: string;

/** Twelve positions per trader over the last 30 days, winners and losers, on two tokens. */
function history(account: string, t: number): Record<string, unknown>[] {
  const orders: Record<string, unknown>[] = [];
  for (let i = 0; i < 12; i += 1) {
    const btc = i % 2 === 0;
    const price = btc ? 50_000 + 700 * i : 2_000 + 30 * i;
    const move = ((i * 7 + t) % 5) - 2; // −2 … +2 %
    const at = TODAY - (28 - 2 * i) * DAY;
    const base = {
      account,
      protocol: P,
      indexToken: btc ? BTC : ETH,
      isLong: (i + t) % 3 !== 0,
      sizeDeltaNumber: 10_000 + 1_000 * i,
      collateralDeltaNumber: 1_000,
    };
    const id = `${t}-${i}`;
    orders.push(
      { ...base, id: `${id}-o`, type: 'OPEN', priceNumber: price, blockTime: at, txHash: hash(id, 1) },
      {
        ...base,
        id: `${id}-c`,
        type: 'CLOSE',
        priceNumber: price * (1 + move / 100),
        blockTime: at + 20 * HOUR,
        txHash: hash(id, 2),
      },
    );
  }
  return orders;
}
const hash = (id: string, n: number) =>
  `0x${Buffer.from(`${id}:${n}`).toString('hex').padEnd(64, '0').slice(0, 64)}`;

beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  key = apiKeyOf(svc);
  const orders = TRADERS.flatMap((account, t) => history(account, t));
  const res = await postJson(`${svc.url}/sandbox/orders`, { orders }, { 'x-admin-key': ADMIN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(() => svc?.close());

const BODY = sweepRequestSchema.parse({
  accounts: TRADERS,
  leverage: [2, 3, 5, 8, 10, 15, 20],
  stopLossAmount: [1, 2, 5],
  enableStopLoss: true,
  stopLossType: 'PERCENT',
  takeProfitAmount: [2, 4],
  enableTakeProfit: true,
  takeProfitType: 'PERCENT',
});
const TOTAL = 2 * 7 * 3 * 2;

function handlers() {
  const events = new CoreEvents();
  const client = new ServiceClient(profileFor(svc), { credentials: staticCredentials({ apiKey: key }) });
  return { events, ...createBacktestHandlers({ client: async () => client, events }) };
}

/** The service's own answer to the whole sweep, in one request. */
async function wholeSweep(): Promise<SweepResponse> {
  const res = await postJson(`${svc.url}/${P}/back-testing/sweep`, BODY, { 'x-api-key': key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as SweepResponse;
}

const settingsKey = (item: SweepItem) => `${item.account}:${JSON.stringify(item.settings)}`;

describe('the core’s sweep against the real service', () => {
  it('answers, in pieces with progress, exactly what one whole sweep answers', async () => {
    const whole = await wholeSweep();
    expect(whole.combinations).toBe(TOTAL);
    // The traders' settings matter: the sweep does not rank equal scores only.
    expect(new Set(whole.data.map((d) => d.score)).size).toBeGreaterThan(5);
    const h = handlers();
    const progress: number[] = [];
    h.events.on('backtest:progress', (p) => progress.push(p.done));
    const answer = await h['backtest:sweep']({ protocol: P, runId: 'whole', body: BODY });
    expect(answer.cancelled).toBe(false);
    expect(answer.total).toBe(TOTAL);
    expect(answer.sweep.data).toEqual(whole.data);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(TOTAL);
    expect(progress.length).toBeGreaterThan(3);
  });

  it('keeps the whole sweep’s order among equal scores that land in different pieces', async () => {
    // Without volume protection the look-back changes nothing: each score repeats once per value,
    // and the pieces are cut along the look-back list, so every tie spans pieces.
    const body = sweepRequestSchema.parse({
      accounts: [TRADERS[0]],
      leverage: 5,
      lookBackOrders: [1, 2, 3, 4, 5, 6, 7, 8],
      stopLossAmount: [1, 5],
      enableStopLoss: true,
      stopLossType: 'PERCENT',
    });
    const res = await postJson(`${svc.url}/${P}/back-testing/sweep`, body, { 'x-api-key': key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const whole = res.body as unknown as SweepResponse;
    expect(whole.combinations).toBe(16);
    expect(new Set(whole.data.map((d) => d.score)).size).toBeLessThanOrEqual(2);
    const answer = await handlers()['backtest:sweep']({ protocol: P, runId: 'ties', body });
    expect(answer.sweep.data).toEqual(whole.data);
  });

  it('stops between two pieces when cancelled, and ranks what ran as the whole sweep would', async () => {
    const whole = new Map((await wholeSweep()).data.map((d) => [settingsKey(d), d]));
    const h = handlers();
    let cancelled: Promise<{ cancelled: boolean }> | null = null;
    h.events.on('backtest:progress', (p) => {
      if (p.done > 0 && !cancelled) cancelled = h['backtest:cancel']({ runId: 'cut' });
    });
    const answer = await h['backtest:sweep']({ protocol: P, runId: 'cut', body: BODY });
    expect(await cancelled).toEqual({ cancelled: true });
    expect(answer.cancelled).toBe(true);
    const ran = answer.sweep.data;
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(TOTAL);
    expect(answer.sweep.combinations).toBe(ran.length);
    expect(ran.map((d) => d.rank)).toEqual(ran.map((_, i) => i + 1));
    for (const item of ran) {
      const same = whole.get(settingsKey(item));
      expect(same, settingsKey(item)).toBeDefined();
      expect({ ...item, rank: 0 }).toEqual({ ...same, rank: 0 });
    }
    for (let i = 1; i < ran.length; i += 1) expect(ran[i - 1]!.score).toBeGreaterThanOrEqual(ran[i]!.score);
    // The run is over: a second cancel changes nothing.
    expect(await h['backtest:cancel']({ runId: 'cut' })).toEqual({ cancelled: false });
  });
});
