// The statistic filters' answer cache (src/http/routes/statistics.ts, response-cache.ts) must
// never serve an answer older than the data: the public filter's items carry each record's
// ranking, which the live market rewrites in place between recomputes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_ROWS } from '../../src/service/statistics/store/statistic-rows';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor } from '../support/credentials';

let svc: RunningService;
let key: string;
beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

type Item = { id: string; type: string; ranking: { pnl: number } };

const BODY = {
  queries: [{ fieldName: 'type', value: 'FULL' }],
  sortBy: 'pnl',
  sortType: 'desc',
  pagination: { limit: 5, offset: 0 },
};
const ask = async (limit = BODY.pagination.limit) => {
  const body = { ...BODY, pagination: { limit, offset: 0 } };
  const res = await postJson(`${svc.url}/public/NOVA_ARB/position/statistic/filter`, body, {
    'x-api-key': key,
  });
  expect(res.status).toBe(200);
  return res.body.data as Item[];
};

describe('the statistic answer cache', () => {
  it('answers a percentile rewritten in place, not the cached one', async () => {
    const cache = (svc.service.app as unknown as { statisticCache: { hits: number } }).statisticCache;
    // Asked twice, the answer is kept; the third ask shows it is served from the cache.
    await ask();
    await ask();
    const hits = cache.hits;
    const [first] = await ask();
    expect(cache.hits).toBe(hits + 1);
    expect(first).toBeDefined();
    const rewritten = first!.ranking.pnl === 12.34 ? 56.78 : 12.34;
    svc.service.db
      .prepare(
        `UPDATE statistics SET "rk_pnl" = ? WHERE protocol = ? AND type = ? AND id = ? AND ${CURRENT_ROWS}`,
      )
      .run(rewritten, 'NOVA_ARB', first!.type, first!.id);
    const [again] = await ask();
    expect(again!.id).toBe(first!.id);
    expect(again!.ranking.pnl).toBe(rewritten);
  });

  it('answers a repeated body from the cache while nothing changes, from its third ask', async () => {
    const cache = (svc.service.app as unknown as { statisticCache: { hits: number } }).statisticCache;
    // A fresh body: a limit no other test of this file asks for.
    const first = await ask(3);
    const hits = cache.hits;
    // Its second ask computes it again and keeps it; the third is answered from the cache.
    expect(await ask(3)).toEqual(first);
    expect(cache.hits).toBe(hits);
    expect(await ask(3)).toEqual(first);
    expect(cache.hits).toBe(hits + 1);
  });
});
