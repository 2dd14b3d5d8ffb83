// The backtest routes over real HTTP: credentials, the answer's shape and defaults, the sweep's
// ranking, and a 400 naming the field for every rule of the body (docs/backtest.md, API).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import type { BacktestResult, SweepResponse } from '../../src/shared/api/backtest';
import { postJson, type RunningService } from '../support/service';
import { apiKeyOf, expectError, FIXED_NOW, loginCopyUser, startCopyService } from '../support/copy-session';

const ADMIN = 'backtest-api-admin-key-012345';
const P = 'NOVA_ARB';
const BTC = indexTokenAddress(P, 'BTC');
const ETH = indexTokenAddress(P, 'ETH');
const WHALE = getAddress('0x' + '7a'.repeat(20));
const QUIET = getAddress('0x' + '7b'.repeat(20));
const DAY = 86_400_000;
const TODAY = Math.floor(FIXED_NOW / DAY) * DAY;

let svc: RunningService;
let key: string;
let token: string;
let n = 0;
const order = (patch: Record<string, unknown>) => ({
  id: `api-${(n += 1)}`,
  account: WHALE,
  protocol: P,
  indexToken: BTC,
  isLong: true,
  type: 'OPEN',
  sizeDeltaNumber: 20_000,
  collateralDeltaNumber: 2_000,
  priceNumber: 50_000,
  txHash: `0x${String(n).padStart(64, 'a')}`,
  ...patch,
});

beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  key = apiKeyOf(svc);
  token = (await loginCopyUser(svc)).token;
  // Two positions in the default window (the 30 days before today): BTC +2 %, ETH −5 %; and one
  // BTC position 40 days ago, outside it.
  const orders = [
    order({ blockTime: TODAY - 40 * DAY }),
    order({ type: 'CLOSE', priceNumber: 40_000, blockTime: TODAY - 39 * DAY }),
    order({ blockTime: TODAY - 10 * DAY }),
    order({ type: 'CLOSE', priceNumber: 51_000, blockTime: TODAY - 9 * DAY }),
    order({ indexToken: ETH, priceNumber: 2_000, blockTime: TODAY - 8 * DAY }),
    order({ indexToken: ETH, type: 'CLOSE', priceNumber: 1_900, blockTime: TODAY - 7 * DAY }),
  ];
  const res = await postJson(`${svc.url}/sandbox/orders`, { orders }, { 'x-admin-key': ADMIN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(() => svc.close());

const backtest = (body: unknown, headers: Record<string, string> = { 'x-api-key': key }, protocol = P) =>
  postJson(`${svc.url}/${protocol}/back-testing/multiple-order`, body, headers);
const sweep = (body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
  postJson(`${svc.url}/${P}/back-testing/sweep`, body, headers);

describe('POST /{protocol}/back-testing/multiple-order', () => {
  it('takes a JWT or an API key, and nothing else', async () => {
    expectError(await backtest({ accounts: [WHALE] }, {}), 401, 'UNAUTHORIZED');
    expectError(
      await backtest({ accounts: [WHALE] }, { 'x-api-key': 'not-a-key-not-a-key' }),
      401,
      'UNAUTHORIZED',
    );
    expect((await backtest({ accounts: [WHALE] }, { authorization: token })).status).toBe(200);
    expect((await backtest({ accounts: [WHALE] })).status).toBe(200);
  });

  it('answers one result per account with the defaults: 1,000 balance, 100 at 5×, the last 30 days', async () => {
    const res = await backtest({ accounts: [WHALE, QUIET] });
    expect(res.status).toBe(200);
    const [whale, quiet] = res.body as unknown as BacktestResult[];
    // BTC: 100 at 5× = 500 USD = 0.01 BTC, +10, fees 0.3 + 0.1785. ETH: 0.25 ETH, −25, fees 0.3 + 0.16625.
    expect(whale).toMatchObject({
      account: WHALE,
      protocol: P,
      totalTrade: 2,
      totalWin: 1,
      totalLose: 1,
      totalGain: 9.5215,
      totalLoss: -25.46625,
      profit: -15.94475,
      roi: -1.5945,
      winRate: 50,
      fees: 0.94475,
      funding: 0,
      totalSkipped: 0,
      pricePath: 'fills',
      maxVolMultiplier: 1,
    });
    expect(whale!.equity).toEqual([
      { time: TODAY - 30 * DAY, balance: 1_000 },
      { time: TODAY - 9 * DAY, balance: 1_009.5215 },
      { time: TODAY - 7 * DAY, balance: 984.05525 },
    ]);
    // The worst fall from the peak 1,009.5215 to 984.05525.
    expect(whale!.maxDrawDownPnl).toBe(-25.46625);
    expect(whale!.simulatorPositions).toBeUndefined();
    expect(quiet).toMatchObject({
      account: QUIET,
      totalTrade: 0,
      profit: 0,
      roi: 0,
      minRoi: null,
      maxPnl: null,
    });
  });

  it('returns the positions when asked, over a window given as ISO text', async () => {
    const res = await backtest({
      accounts: [WHALE],
      isReturnPositions: true,
      fromTime: new Date(TODAY - 45 * DAY).toISOString(),
      toTime: TODAY,
      leverage: 10,
    });
    const [whale] = res.body as unknown as BacktestResult[];
    expect(whale!.simulatorPositions!.map((p) => [p.position.pair, p.closeReason, p.volMultiplier])).toEqual([
      ['BTC/USD', 'LIQUIDATE', 1],
      ['BTC/USD', 'COPY_TRADE', 1],
      ['ETH/USD', 'COPY_TRADE', 1],
    ]);
    // 0.02 BTC from 50,000: the trader's next price, 40,000, is past the liquidation price 45,000,
    // so the copy loses its margin (100) and the fees (0.6 + 800 × 0.035 %).
    expect(whale!.totalLiquidate).toBe(1);
    expect(whale!.simulatorPositions![0]!.profit).toBe(-100.88);
  });

  it('copies only the listed pairs when copyAll is false', async () => {
    const res = await backtest({ accounts: [WHALE], copyAll: false, pairs: ['ETH/USD'] });
    expect((res.body as unknown as BacktestResult[])[0]!.totalTrade).toBe(1);
  });

  it('answers 400 naming the field and the rule, for every rule of the body', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /accounts is required/],
      [{ accounts: [] }, /accounts must not be empty/],
      [{ accounts: Array.from({ length: 51 }, () => WHALE) }, /accounts must have at most 50 accounts/],
      [{ accounts: ['nope'] }, /accounts\[0\] must be a 0x address/],
      [{ accounts: [WHALE], fromTime: TODAY, toTime: TODAY - DAY }, /fromTime must be before toTime/],
      [{ accounts: [WHALE], fromTime: TODAY + DAY }, /fromTime must be before toTime/],
      [{ accounts: [WHALE], balance: 50 }, /balance must be at least orderVolume/],
      [{ accounts: [WHALE], leverage: 60 }, /leverage must be between 2 and 50/],
      [{ accounts: [WHALE], orderVolume: 0 }, /orderVolume must be greater than 0/],
      [{ accounts: [WHALE], enableStopLoss: true }, /stopLossAmount is required when enableStopLoss is true/],
      [
        { accounts: [WHALE], enableStopLoss: true, stopLossType: 'USD', stopLossAmount: 500 },
        /stopLossAmount must be at most orderVolume when stopLossType is USD/,
      ],
      [{ accounts: [WHALE], lookBackOrders: 1.5 }, /lookBackOrders must be an integer/],
      [{ accounts: [WHALE], copyAll: false }, /pairs must not be empty when copyAll is false/],
      [{ accounts: [WHALE], copyAll: false, pairs: ['NOPE/USD'] }, /pairs\[0\] "NOPE\/USD" is not a token/],
      [{ accounts: [WHALE], delaySeconds: 100_000 }, /delaySeconds must be at most 86400/],
      [{ accounts: [WHALE], slippageBps: -1 }, /slippageBps must be at least 0/],
      [{ accounts: [WHALE], feeRate: 0.5 }, /feeRate must be at most 0.01/],
      [
        { accounts: [WHALE], fromTime: 'yesterday' },
        /fromTime must be epoch milliseconds or an ISO 8601 time/,
      ],
      [{ accounts: [WHALE], speed: 'fast' }, /must not contain unknown field "speed"/],
    ];
    for (const [body, message] of cases) expectError(await backtest(body), 400, 'VALIDATION_FAILED', message);
    expectError(
      await backtest({ accounts: [WHALE] }, { 'x-api-key': key }, 'NOPE_CHAIN'),
      400,
      'VALIDATION_FAILED',
      /not a known protocol/,
    );
  });
});

describe('POST /{protocol}/back-testing/sweep', () => {
  it('answers every combination ranked by ROI, with its settings', async () => {
    const res = await sweep({
      accounts: [WHALE],
      leverage: [2, 10],
      orderVolume: [100, 200],
      reverseCopy: [false, true],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as unknown as SweepResponse;
    expect(body).toMatchObject({ protocol: P, rankBy: 'roi', combinations: 8, toTime: TODAY });
    expect(body.data.map((d) => d.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const rois = body.data.map((d) => d.roi);
    expect(rois).toEqual([...rois].sort((a, b) => b - a));
    // Reversed, the ETH loss is a gain and the BTC gain a loss: the best is reversed at 10× with 200.
    expect(body.data[0]!.settings).toMatchObject({ leverage: 10, orderVolume: 200, reverseCopy: true });
    expect(body.data[0]!).not.toHaveProperty('equity');
  });

  it('ranks by ROI per drawdown when asked', async () => {
    const res = await sweep({ accounts: [WHALE], leverage: [2, 10], rankBy: 'roiPerDrawDown' });
    const body = res.body as unknown as SweepResponse;
    expect(body.rankBy).toBe('roiPerDrawDown');
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data)
      expect(item.score).toBeCloseTo(item.roi / Math.max(1, Math.abs(item.maxDrawDown)), 9);
  });

  it('refuses more than 10,000 combinations, and names a bad swept value', async () => {
    expectError(
      await sweep({
        accounts: [WHALE, QUIET],
        leverage: Array.from({ length: 49 }, (_, i) => i + 2),
        orderVolume: Array.from({ length: 110 }, (_, i) => i + 1),
      }),
      400,
      'VALIDATION_FAILED',
      /accounts with the swept lists make 10780 combinations .* at most 10000/,
    );
    expectError(
      await sweep({ accounts: [WHALE], leverage: [2, 5, 70] }),
      400,
      'VALIDATION_FAILED',
      /leverage\[2\] must be between 2 and 50/,
    );
    expectError(
      await sweep({ accounts: [WHALE], rankBy: 'luck' }),
      400,
      'VALIDATION_FAILED',
      /rankBy must be one of roi, roiPerDrawDown/,
    );
    expectError(await sweep({ accounts: [WHALE] }, {}), 401, 'UNAUTHORIZED');
  });
});
