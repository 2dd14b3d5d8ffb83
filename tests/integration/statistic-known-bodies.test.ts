// The statistic filters recognise a body text they validated before (routes/statistics.ts,
// json-body.ts; docs/statistics.md, "The columnar index"): a repeat skips the JSON parse, the
// validation and the cache key's building. What must not change: a bad body answers its 400 every
// time, a text valid for one route is still checked by another, and the path's protocol is read
// on every request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor } from '../support/credentials';

let svc: RunningService;
let key: string;
beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

const known = () =>
  (svc.service.app as unknown as { statisticBodies: { public: { hits: number }; filter: { hits: number } } })
    .statisticBodies;
const post = (path: string, text: string) => postJson(`${svc.url}${path}`, text, { 'x-api-key': key });
const PUBLIC = '/public/NOVA_ARB/position/statistic/filter';

describe('statistic filter bodies recognised by their text', () => {
  it('answers a repeated body text as before, without validating it again', async () => {
    const text = JSON.stringify({
      queries: [{ fieldName: 'type', value: 'FULL' }],
      ranges: [{ fieldName: 'totalTrade', gte: 1 }],
      sortBy: 'pnl',
      pagination: { limit: 4, offset: 0 },
    });
    const first = await post(PUBLIC, text);
    expect(first.status).toBe(200);
    const hits = known().public.hits;
    // Remembered from its second validation (a body sent once is not kept), recognised from its third ask.
    expect((await post(PUBLIC, text)).body).toEqual(first.body);
    expect(known().public.hits).toBe(hits);
    for (let i = 1; i <= 2; i += 1) {
      expect((await post(PUBLIC, text)).body).toEqual(first.body);
      expect(known().public.hits).toBe(hits + i);
    }
    // The same query in another text (padded, keys reordered) is validated and answers the same.
    const padded =
      ' { "pagination": {"offset": 0, "limit": 4}, "sortBy": "pnl", "ranges": [{"gte": 1, ' +
      '"fieldName": "totalTrade"}], "queries": [{"fieldName": "type", "value": "FULL"}] } ';
    const other = await post(PUBLIC, padded);
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
  });

  it('answers a bad body its 400 every time', async () => {
    const text = JSON.stringify({ ranges: [{ fieldName: 'noSuchField', gte: 1 }] });
    const answers = [await post(PUBLIC, text), await post(PUBLIC, text), await post(PUBLIC, text)];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain('noSuchField');
    }
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[2]!.body).toEqual(answers[0]!.body);
  });

  it('checks a text the public filter accepted again on the private filter, which has no ranges', async () => {
    const text = JSON.stringify({ ranges: [{ fieldName: 'winRate', gte: 10 }], pagination: { limit: 3 } });
    const hits = known().public.hits;
    for (let i = 0; i < 3; i += 1) expect((await post(PUBLIC, text)).status).toBe(200);
    expect(known().public.hits).toBe(hits + 1);
    for (let i = 0; i < 2; i += 1) {
      const answer = await post('/NOVA_ARB/position/statistic/filter', text);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain('ranges');
    }
  });

  it("answers a known text for the path's protocol, and refuses an unknown protocol every time", async () => {
    const text = JSON.stringify({ sortBy: 'winRate', pagination: { limit: 3, offset: 1 } });
    for (let i = 0; i < 2; i += 1) await post(PUBLIC, text);
    const nova = await post(PUBLIC, text);
    const otherPath = '/public/ORBIT_BASE/position/statistic/filter';
    const hits = known().public.hits;
    const other = await post(otherPath, text);
    expect(other.status).toBe(200);
    expect(known().public.hits).toBe(hits + 1);
    // The other protocol's answer to the same query written differently (validated afresh).
    const fresh = await post(otherPath, ` ${text}`);
    expect(other.body).toEqual(fresh.body);
    expect(other.body).not.toEqual(nova.body);
    for (let i = 0; i < 2; i += 1)
      expect((await post('/public/NO_SUCH_PROTOCOL/position/statistic/filter', text)).status).toBe(400);
  });

  it('answers invalid JSON its 400 every time, on both filters', async () => {
    for (const path of [PUBLIC, '/NOVA_ARB/position/statistic/filter'])
      for (let i = 0; i < 2; i += 1) {
        const response = await fetch(`${svc.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: '{"pagination": ',
        });
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('not valid JSON');
      }
  });
});
