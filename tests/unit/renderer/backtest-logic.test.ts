import { describe, expect, it } from 'vitest';
import {
  backtestRequestSchema,
  sweepRequestSchema,
  type SimulatorPosition,
  type SweepItem,
} from '@shared/api/backtest';
import { toCsvRows } from '@renderer/components/table/csv-rows';
import { emptyCopyTradeForm } from '@renderer/copy-trades/copy-trade-form';
import {
  compareColumns,
  positionColumns,
  sweepColumns,
  traderColumns,
} from '@renderer/pages/backtest/backtest-columns';
import {
  dayToMs,
  defaultSettings,
  describeSettings,
  settingsFromCopyForm,
  settingsIssues,
  settingsToBody,
  settingsToCopyForm,
} from '@renderer/pages/backtest/backtest-settings';
import {
  candleRange,
  equityPoints,
  marksOnCandles,
  tokenPaths,
  type TradeMark,
} from '@renderer/pages/backtest/chart-series';
import {
  heatGrid,
  heatTone,
  parseValueList,
  settingsOfItem,
  sweepBody,
} from '@renderer/pages/backtest/sweep-grid';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const NOW = Date.UTC(2026, 10, 26, 15, 30);

const settings = (patch = {}) => defaultSettings(NOW, { protocol: 'NOVA_ARB', accounts: [A], ...patch });

/** A sweep item with only what the grid reads. */
function item(account: string, leverage: number, orderVolume: number, roi: number, rank: number): SweepItem {
  return {
    account,
    roi,
    maxDrawDown: -10,
    profit: roi * 10,
    winRate: 50,
    rank,
    score: roi,
    settings: {
      leverage,
      orderVolume,
      stopLossAmount: null,
      takeProfitAmount: null,
      lookBackOrders: null,
      maxVolMultiplier: null,
      reverseCopy: false,
      delaySeconds: 0,
    },
  } as SweepItem;
}

describe('backtest settings', () => {
  it('defaults to the service’s: 1,000 USD, 100 at 5×, the 30 days before today, UTC', () => {
    const s = defaultSettings(NOW);
    expect([s.balance, s.orderVolume, s.leverage]).toEqual(['1000', '100', '5']);
    expect([s.fromDate, s.toDate]).toEqual(['2026-10-27', '2026-11-26']);
  });

  it('sends whole UTC days, fees as a fraction, and leaves out amounts whose switch is off', () => {
    const body = settingsToBody(
      settings({ feePercent: '0.035', stopLossAmount: '10', takeProfitAmount: '30', enableTakeProfit: true }),
    );
    expect(body.fromTime).toBe(Date.UTC(2026, 9, 27));
    expect(body.toTime).toBe(Date.UTC(2026, 10, 27) - 1);
    expect(body.feeRate).toBeCloseTo(0.00035, 12);
    expect(body).not.toHaveProperty('stopLossAmount');
    expect(body.takeProfitAmount).toBe(30);
    expect(body.isReturnPositions).toBe(true);
    expect(backtestRequestSchema.safeParse(body).success).toBe(true);
  });

  it('names the form field a rule breaks, in the contract’s words', () => {
    expect(settingsIssues(settings())).toEqual({});
    expect(settingsIssues(settings({ leverage: '1' })).leverage).toBe('must be between 2 and 50');
    expect(settingsIssues(settings({ balance: '50' })).balance).toBe('must be at least the margin per order');
    expect(settingsIssues(settings({ fromDate: '2026-11-30' })).fromDate).toBe('must be before the To day');
    expect(settingsIssues(settings({ enableTakeProfit: true })).takeProfitAmount).toBe(
      'is required when Take profit is on',
    );
    expect(settingsIssues(settings({ protocol: '' })).protocol).toBe('Choose a protocol.');
    expect(settingsIssues(settings({ accounts: [] })).accounts).toBe('must not be empty');
  });

  it('reads one line per configuration', () => {
    expect(
      describeSettings(
        settings({ enableStopLoss: true, stopLossAmount: '10', delaySeconds: '5', funding: false }),
      ),
    ).toBe(
      '$1,000.00 balance · $100.00 × 5× · SL 10% · delay 5 s · venue fee · no funding · 2026-10-27 → 2026-11-26',
    );
  });

  it('goes from the copy-trade form and back without losing an option', () => {
    const form = emptyCopyTradeForm({
      account: A,
      protocol: 'NOVA_ARB',
      multipleCopy: true,
      accounts: [B],
      volume: '250',
      leverage: '10',
      enableStopLoss: true,
      stopLossType: 'USD',
      stopLossAmount: '40',
      side: 'LONG',
      skipLowSize: true,
      lowSize: '500',
    });
    const s = settingsFromCopyForm(form, NOW);
    expect(s.accounts).toEqual([A, B]);
    expect(settingsToBody(s)).toMatchObject({
      accounts: [A, B],
      orderVolume: 250,
      leverage: 10,
      stopLossType: 'USD',
      stopLossAmount: 40,
      side: 'LONG',
      lowSize: 500,
    });
    const back = settingsToCopyForm(s);
    // The form's options the backtest carries (all but the copy trade's own: title, wallet, …) come back.
    expect(Object.keys(back)).toHaveLength(27);
    expect(Object.keys(form)).toEqual(expect.arrayContaining(Object.keys(back)));
    for (const key of Object.keys(back) as (keyof typeof back)[]) expect(back[key]).toEqual(form[key]);
  });
});

describe('the sweep', () => {
  it('parses value lists and says which entry is wrong', () => {
    expect(parseValueList('leverage', '2, 5 10;5')).toEqual({ values: [2, 5, 10] });
    expect(parseValueList('reverseCopy', 'yes, no')).toEqual({ values: [true, false] });
    expect(parseValueList('leverage', '2, x')).toEqual({ error: '“x” is not a number.' });
    expect(parseValueList('orderVolume', ' ')).toEqual({ error: 'Type at least one value.' });
  });

  it('sends the two axes as lists and turns on the switch of a swept exit', () => {
    const body = sweepBody(
      settings(),
      [
        { field: 'leverage', values: [2, 5] },
        { field: 'stopLossAmount', values: [5, 10] },
      ],
      'roiPerDrawDown',
    );
    expect(body).toMatchObject({
      leverage: [2, 5],
      stopLossAmount: [5, 10],
      enableStopLoss: true,
      rankBy: 'roiPerDrawDown',
    });
    expect(body).not.toHaveProperty('isReturnPositions');
    expect(sweepRequestSchema.safeParse(body).success).toBe(true);
  });

  it('builds the heat map of one trader, axis values in order, holes where nothing ran', () => {
    const items = [
      item(A, 5, 100, 12, 1),
      item(A, 2, 100, -3, 3),
      item(A, 2, 50, 4, 2),
      item(B, 2, 50, 99, 4),
    ];
    const grid = heatGrid(items, 'leverage', 'orderVolume', 'roi', A);
    expect(grid.xs).toEqual([2, 5]);
    expect(grid.ys).toEqual([50, 100]);
    expect(grid.cells.map((row) => row.map((c) => c?.value ?? null))).toEqual([
      [4, null],
      [-3, 12],
    ]);
    expect([grid.min, grid.max]).toEqual([-3, 12]);
    expect(heatTone(-3, grid)).toEqual({ tone: 'bad', strength: 0.25 });
    expect(heatTone(12, grid)).toEqual({ tone: 'good', strength: 1 });
    expect(heatTone(0, grid)).toEqual({ tone: 'flat', strength: 0 });
  });

  it('keeps the best-ranked item of a cell when a third setting was swept, and divides by drawdown', () => {
    const worse = {
      ...item(A, 2, 50, 1, 5),
      settings: { ...item(A, 2, 50, 1, 5).settings, delaySeconds: 30 },
    };
    const grid = heatGrid([worse, item(A, 2, 50, 20, 1)], 'leverage', 'orderVolume', 'roiPerDrawDown', A);
    expect(grid.cells[0]![0]!.item.rank).toBe(1);
    expect(grid.cells[0]![0]!.value).toBe(2);
  });

  it('opens a cell as that configuration’s settings', () => {
    const s = settingsOfItem(settings({ accounts: [A, B] }), item(B, 10, 50, 1, 1));
    expect([s.accounts, s.leverage, s.orderVolume, s.delaySeconds]).toEqual([[B], '10', '50', '0']);
  });
});

describe('the charts’ series', () => {
  it('keeps one equity point per second, the last balance of the second', () => {
    expect(
      equityPoints([
        { time: 5_000, balance: 1010 },
        { time: 1_000, balance: 1000 },
        { time: 5_900, balance: 1020 },
      ]),
    ).toEqual([
      { time: 1, value: 1000 },
      { time: 5, value: 1020 },
    ]);
  });

  it('draws each token through its entries and exits, marked, busiest token first', () => {
    const pos = (pair: string, open: number, close: number, entry: number, exit: number): SimulatorPosition =>
      ({
        position: {
          pair,
          openTime: open * 1000,
          closeTime: close * 1000,
          entryPrice: entry,
          closePrice: exit,
          isLong: true,
        },
        profit: exit - entry,
        closeReason: 'STOP_LOSS',
      }) as SimulatorPosition;
    const paths = tokenPaths([
      pos('ETH/USD', 1, 2, 10, 11),
      pos('BTC/USD', 1, 5, 100, 90),
      pos('BTC/USD', 5, 9, 91, 95),
    ]);
    expect(paths.map((p) => p.pair)).toEqual(['BTC/USD', 'ETH/USD']);
    // The exit at second 5 comes before the entry at second 5; the line keeps the later price.
    expect(paths[0]!.points).toEqual([
      { time: 1, value: 100 },
      { time: 5, value: 91 },
      { time: 9, value: 95 },
    ]);
    expect(paths[0]!.marks.map((m) => `${m.kind}@${m.time}`)).toEqual([
      'entry@1',
      'exit@5',
      'entry@5',
      'exit@9',
    ]);
    expect(paths[0]!.marks[1]).toMatchObject({ reason: 'STOP_LOSS', profit: -10 });
  });
});

describe('candles around a token’s trades', () => {
  const mark = (time: number, kind: 'entry' | 'exit' = 'entry'): TradeMark => ({
    time,
    price: 1,
    kind,
    isLong: true,
    reason: null,
    profit: null,
  });

  it('pads the span by a tenth and takes the narrowest width under 400 candles', () => {
    // Two days of trades: padded to 2.4 days, 3,456 minutes, 692 of 5 m, 231 of 15 m.
    const range = candleRange({ marks: [mark(86_400), mark(3 * 86_400, 'exit')] });
    expect(range).toEqual({
      from: 86_400_000 - 17_280_000,
      to: 3 * 86_400_000 + 17_280_000,
      interval: '15m',
    });
    // A few minutes: at least a minute each side, in 1 m candles.
    expect(candleRange({ marks: [mark(6000), mark(6120)] })).toEqual({
      from: 5_940_000,
      to: 6_180_000,
      interval: '1m',
    });
  });

  it('puts each mark on the candle it falls in, or the nearest when that one is missing', () => {
    const moved = marksOnCandles([mark(130), mark(250, 'exit'), mark(610)], [120, 180, 600], 60);
    expect(moved.map((m) => m.time)).toEqual([120, 180, 600]);
    expect(marksOnCandles([mark(130)], [], 60)).toEqual([]);
  });
});

describe('CSV rows of the backtest tables', () => {
  const position: SimulatorPosition = {
    position: {
      account: A,
      indexToken: '0x1',
      pair: 'BTC/USD',
      isLong: false,
      openTime: Date.UTC(2026, 10, 1, 12),
      closeTime: Date.UTC(2026, 10, 2, 8, 30),
      entryPrice: 64000,
      closePrice: 63000,
      size: 500,
      margin: 100,
      leverage: 5,
      realisedPnl: 7.8125,
      fee: 0.35,
      funding: -0.1,
      pnl: 7.3625,
    },
    preBalance: 1000,
    balance: 1007.3625,
    profit: 7.3625,
    roi: 7.3625,
    volMultiplier: 1,
    closeReason: 'TAKE_PROFIT',
  };

  it('writes a position with raw numbers, full times and the reason’s code', () => {
    const csv = toCsvRows(positionColumns, [position]);
    expect(csv.columns).toEqual([
      'Pair',
      'Side',
      'Opened (UTC)',
      'Closed (UTC)',
      'Entry',
      'Exit',
      'Size',
      'Lev.',
      'Vol. mult.',
      'Fees',
      'PnL',
      'ROI',
      'Balance after',
      'Closed by',
    ]);
    expect(csv.rows).toEqual([
      [
        'BTC/USD',
        'SHORT',
        '2026-11-01T12:00:00.000Z',
        '2026-11-02T08:30:00.000Z',
        64000,
        63000,
        500,
        5,
        1,
        0.35,
        7.3625,
        7.3625,
        1007.3625,
        'TAKE_PROFIT',
      ],
    ]);
  });

  it('writes a sweep combination’s settings (null when not swept) before its figures', () => {
    const row = { ...item(A, 5, 100, 12, 1), totalTrade: 3, fees: 1, funding: 0, totalSkipped: 0 };
    const csv = toCsvRows(sweepColumns, [row]);
    expect(csv.columns.slice(0, 11)).toEqual([
      '#',
      'Trader',
      'Lev.',
      'Margin',
      'SL',
      'TP',
      'Look-back',
      'Max mult.',
      'Reverse',
      'Delay s',
      'Score',
    ]);
    expect(csv.rows[0]!.slice(0, 11)).toEqual([1, A, 5, 100, null, null, null, null, 'no', 0, 12]);
    expect(csv.rows[0]!.slice(11)).toEqual([120, 12, -10, 50, 3, 1, 0, 0]);
  });

  it('has one header per column in the traders and compare tables', () => {
    expect(toCsvRows(traderColumns, []).columns).toContain('SL / TP / Liq.');
    expect(toCsvRows(compareColumns, []).columns[0]).toBe('Run');
  });

  it('parses days strictly', () => {
    expect(dayToMs('2026-11-26')).toBe(Date.UTC(2026, 10, 26));
    expect(dayToMs('26/11/2026')).toBeUndefined();
  });
});
