// GET /prices/{protocol}/{indexToken}/candles (docs/service.md, "Price candles") over real HTTP:
// candles computed by hand from fills of known prices, and the 400s that name the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandlesResponse } from '../../src/shared/api/candles';
import { type RunningService } from '../support/service';
import { apiKeyOf, call, expectError, startCopyService } from '../support/copy-session';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Long before the fixture world's own orders, so that only this test's fills fall in range. */
const T0 = Date.UTC(2001, 0, 1);

/** The fills this test stores for one token: time and price. */
const FILLS: [number, number][] = [
  [T0 - 1, 999], // before `from`: left out
  [T0 + 5 * MINUTE, 100],
  [T0 + 20 * MINUTE, 110],
  [T0 + 40 * MINUTE, 95],
  [T0 + 59 * MINUTE, 105],
  [T0 + HOUR + MINUTE, 200],
  // no fill in the third hour: no candle there
  [T0 + 3 * HOUR, 150],
  [T0 + 3 * HOUR + 30 * MINUTE, 160],
  [T0 + 4 * HOUR, 777], // at `to`: left out (the range is [from, to))
];

let svc: RunningService;
let key: string;
let protocol: string;
let indexToken: string;

/** Stores `FILLS` as orders of one fixture position, copied from a stored order with new ids. */
function storeFills(): void {
  const db = svc.service.db;
  const template = db.prepare('SELECT * FROM orders ORDER BY id LIMIT 1').get() as Record<string, unknown>;
  protocol = template.protocol as string;
  indexToken = template.index_token as string;
  const columns = Object.keys(template);
  const insert = db.prepare(
    `INSERT INTO orders (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  FILLS.forEach(([timeMs, price], i) =>
    insert.run({ ...template, id: `candle-test-${i}`, price, block_time_ms: timeMs, log_id: i }),
  );
}

const candles = (query: string, auth: Record<string, string> = { 'x-api-key': key }) =>
  call<CandlesResponse>(svc, 'GET', `/prices/${protocol}/${indexToken}/candles?${query}`, { headers: auth });

beforeAll(async () => {
  svc = await startCopyService({ seedFixture: true });
  key = apiKeyOf(svc);
  storeFills();
});
afterAll(() => svc.close());

describe('candles from stored fills', () => {
  it('builds hourly candles: open first, close last, high and low the extremes, gaps left', async () => {
    const res = await candles(`from=${T0}&to=${T0 + 4 * HOUR}&interval=1h`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      protocol,
      indexToken,
      interval: '1h',
      source: 'fills',
      candles: [
        { time: T0, open: 100, high: 110, low: 95, close: 105 },
        { time: T0 + HOUR, open: 200, high: 200, low: 200, close: 200 },
        { time: T0 + 3 * HOUR, open: 150, high: 160, low: 150, close: 160 },
      ],
    });
  });

  it('aligns 15-minute candles to the epoch, one fill each', async () => {
    const res = await candles(`from=${T0}&to=${T0 + HOUR}&interval=15m`);
    expect(res.body.candles).toEqual([
      { time: T0, open: 100, high: 100, low: 100, close: 100 },
      { time: T0 + 15 * MINUTE, open: 110, high: 110, low: 110, close: 110 },
      { time: T0 + 30 * MINUTE, open: 95, high: 95, low: 95, close: 95 },
      { time: T0 + 45 * MINUTE, open: 105, high: 105, low: 105, close: 105 },
    ]);
  });

  it('answers an empty list for a range without prices', async () => {
    const res = await candles(`from=${T0 - 10 * HOUR}&to=${T0 - 5 * HOUR}&interval=1h`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'none', candles: [] });
  });
});

describe('what the endpoint refuses', () => {
  it('asks for a JWT or an API key', async () => {
    const res = await candles(`from=${T0}&to=${T0 + HOUR}&interval=1h`, {});
    expect(res.status).toBe(401);
  });

  it.each([
    ['', /from is required/],
    [`from=${T0}&to=${T0 + HOUR}`, /interval is required/],
    [`from=${T0}&to=${T0 + HOUR}&interval=2m`, /interval must be one of 1m, 5m, 15m, 1h, 4h, 1d/],
    [`from=soon&to=${T0 + HOUR}&interval=1h`, /from must be an integer/],
    [`from=-5&to=${T0 + HOUR}&interval=1h`, /^from must be epoch milliseconds, at least 0$/],
    [`from=${T0}&to=${T0}&interval=1h`, /to must be after from/],
    [`from=${T0}&to=${T0 + 2 * 24 * HOUR}&interval=1m`, /to must leave at most 1500 candles of 1m.*2880/],
    [`from=${T0}&to=${T0 + HOUR}&interval=1h&limit=5`, /query must not contain unknown field "limit"/],
  ])('refuses %s with a 400 naming the field', async (query, message) => {
    const before = svc.service.db.prepare('SELECT COUNT(*) AS n FROM orders').get();
    const res = await candles(query);
    expectError(res, 400, 'VALIDATION_FAILED', message);
    expect(svc.service.db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toEqual(before);
  });

  it('refuses an unknown protocol and a token the protocol does not list', async () => {
    const range = `from=${T0}&to=${T0 + HOUR}&interval=1h`;
    const headers = { 'x-api-key': key };
    expectError(
      await call(svc, 'GET', `/prices/NOPE_X/${indexToken}/candles?${range}`, { headers }),
      400,
      'VALIDATION_FAILED',
      /protocol "NOPE_X" is not a known protocol/,
    );
    expectError(
      await call(svc, 'GET', `/prices/${protocol}/0xnot-a-token/candles?${range}`, { headers }),
      400,
      'VALIDATION_FAILED',
      /indexToken "0xnot-a-token" is not a token of/,
    );
  });
});
