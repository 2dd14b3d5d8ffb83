// The statistics answers made without per-record JSON work (issue #19): the GraphQL plain-field
// search (src/service/graphql/plain-search.ts) must write exactly the text graphql-js's execution
// writes, and take the full path for anything it cannot answer so; the REST filter's answer made
// as bytes (render-rows.ts, currentPageBuffer) must be exactly the text it was made as before.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Window } from '../../src/shared/api/common';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { answerGraphqlText, runGraphql } from '../../src/service/graphql/execute';
import { graphqlOperationOf } from '../../src/service/graphql/request';
import { answerPlainSearch, plainSearchPlan } from '../../src/service/graphql/plain-search';
import { graphqlSchema } from '../../src/service/graphql/schema';
import type { GraphqlContext } from '../../src/service/graphql/resolvers';
import {
  filterStatistics,
  filterStatisticsAnswer,
  type StatisticQuery,
} from '../../src/service/statistics/queries/statistic-filters';
import { pageJson } from '../../src/service/statistics/store/json-rows';
import { replacePopulation } from '../support/statistics-world';
import { SeededRandom } from '../../src/service/fixture/random';
import { currentGeneration } from '../../src/service/statistics/store/statistic-rows';
import { storeGenerationJson } from '../../src/service/statistics/store/stored-json';

const POPULATIONS = [
  { protocol: 'PROP_A', window: 'D7', count: 120, seed: 1 },
  { protocol: 'PROP_A', window: 'FULL', count: 80, seed: 2 },
  { protocol: 'PROP_B', window: 'D7', count: 60, seed: 3 },
] as const;

/** The real web client's own query texts (tests/integration/graphql-real-client.test.ts). */
const FIXTURES = join(__dirname, '../fixtures/real-client');

let dir: string;
let db: ServiceDb;
let context: GraphqlContext;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-plain-search-'));
  db = openServiceDatabase(join(dir, 'service.db'));
  for (const p of POPULATIONS) replacePopulation(db, p.protocol, p.window as Window, p.count, p.seed);
  fullPrecisionValues(db);
  context = { db, namespace: 'local', knownProtocols: new Set(['PROP_A', 'PROP_B']) };
});
/**
 * Numbers of every magnitude at full precision in some records (the fixture's are short
 * decimals), their stored JSON rendered again: the plain search reads such numbers from the
 * index, and they must come out as the stored JSON writes them.
 */
function fullPrecisionValues(db: ServiceDb): void {
  const random = new SeededRandom(11);
  const value = () => (random.next() - 0.5) * 10 ** random.int(-8, 15);
  const ids = db.prepare("SELECT id FROM statistics WHERE protocol = 'PROP_B'").pluck().all() as string[];
  const update = db.prepare(
    'UPDATE statistics SET pnl = ?, winRate = ?, sharpeRatio = ?, unrealisedPnl = ?, realisedPnl = ? WHERE id = ?',
  );
  for (const id of ids) update.run(value(), value(), value(), value(), value(), id);
  storeGenerationJson(db, currentGeneration(db));
}

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Query texts the plain path answers: every kind of leaf, aliases, either part alone, the alias field. */
const PLAIN_QUERIES = [
  `query Search($index: String!, $body: SearchPayload!) {
    searchPositionStatistic(index: $index, body: $body) { data { id account protocol type pnl winRate totalTrade } meta { total limit offset totalPages } }
  }`,
  `query ($index: String!, $body: SearchPayload) {
    page: searchPositionStatistic(index: $index, body: $body) {
      meta { pages: totalPages total }
      items: data { sharpeRatio maxDrawdown minDuration unrealisedPnl isOpenPosition updatedAt lastTradeAt
        indexTokens pairs statisticLabels ifLabels identifier: id window: type }
    }
  }`,
  `query Only($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { meta { total } } }`,
  `query Home($index: String!, $body: SearchPayload!) { homePositionStatistic(index: $index, body: $body) { data { account realisedPnl avgLeverage } } }`,
  `query ($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { __typename data { id __typename pnl id } meta { total __typename } t: __typename } }`,
  ...['search-position-statistic', 'home-position-statistic'].map((name) =>
    readFileSync(join(FIXTURES, `${name}.graphql`), 'utf8'),
  ),
  `query Mixed($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { data { id pnl createdAt winRate isOpenPosition pairs sharpeRatio } } }`,
  // Arguments graphql-js's own functions coerce (plain-arguments.ts binds neither): an inline
  // index, a variable with a default.
  `query ($body: SearchPayload!) { searchPositionStatistic(index: "local.position_statistics", body: $body) { data { id pnl } meta { total } } }`,
  `query ($index: String!, $body: SearchPayload = {paging: {size: 2}}) { searchPositionStatistic(index: $index, body: $body) { data { id account } } }`,
];

/** Texts it leaves to graphql-js: fragments, a root __typename, two searches, a directive. */
const FULL_QUERIES = [
  `query ($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { data { ...F } } } fragment F on PositionStatistic { id pnl }`,
  `query ($index: String!, $body: SearchPayload!) { __typename searchPositionStatistic(index: $index, body: $body) { data { id } } }`,
  `query ($index: String!, $body: SearchPayload!) { a: searchPositionStatistic(index: $index, body: $body) { data { id } } b: homePositionStatistic(index: $index, body: $body) { meta { total } } }`,
  `query ($index: String!, $body: SearchPayload!, $no: Boolean!) { searchPositionStatistic(index: $index, body: $body) { data { id pnl @skip(if: $no) } } }`,
];

const FIELDS = ['pnl', 'winRate', 'totalTrade', 'sharpeRatio', 'minDuration', 'ranking.pnl', 'unrealisedPnl'];
const bound = fc.oneof(fc.constantFrom(-20, 0, 1, 2, 50), fc.double({ min: -100, max: 2000, noNaN: true }));
const condition = fc.oneof(
  fc.record({ field: fc.constantFrom(...FIELDS), gte: bound }),
  fc.record({ field: fc.constantFrom(...FIELDS), lte: bound }),
  fc.record({ field: fc.constantFrom('protocol'), match: fc.constantFrom('PROP_A', 'PROP_B') }),
  fc.record({ field: fc.constantFrom('type'), in: fc.subarray(['D7', 'FULL', 'D30']) }),
  fc.record({ field: fc.constantFrom('sharpeRatio'), exists: fc.boolean() }),
);
const body = fc.record({
  filter: fc.record({ and: fc.array(condition, { maxLength: 3 }) }),
  sorts: fc.array(
    fc.record({
      field: fc.constantFrom(...FIELDS, 'id', 'lastTradeAt'),
      direction: fc.constantFrom('asc', 'desc'),
    }),
    { maxLength: 2 },
  ),
  paging: fc.record({ size: fc.integer({ min: 1, max: 40 }), from: fc.integer({ min: 0, max: 150 }) }),
});

const fullText = async (query: string, variables: Record<string, unknown>, operationName?: string) =>
  JSON.stringify(await runGraphql(graphqlSchema, { query, variables, operationName }, context, () => {}));
const answerText = (query: string, variables: Record<string, unknown>, operationName?: string) =>
  answerGraphqlText(graphqlSchema, { query, variables, operationName }, context, () => {});
const plainText = (query: string, variables: Record<string, unknown>, operationName?: string) => {
  const plan = plainSearchPlan(graphqlSchema, parse(query));
  if (!plan) throw new Error('no plan');
  return answerPlainSearch(graphqlSchema, plan, { query, variables, operationName }, context);
};

describe('the GraphQL plain-field statistics search', () => {
  it('writes exactly the text graphql-js writes, for random searches and every plain query text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLAIN_QUERIES), body, async (query, searchBody) => {
        const variables = { index: 'local.position_statistics', body: searchBody };
        const expected = await fullText(query, variables);
        expect(expected).toContain('"data"');
        expect(expected).not.toContain('"errors"');
        expect(plainText(query, variables)).toBe(expected);
        expect(await answerText(query, variables)).toBe(expected);
      }),
      { numRuns: 250 },
    );
  });

  it('writes the same text for a request as the route reads it (the body parsed once, with the envelope)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLAIN_QUERIES), body, async (query, searchBody) => {
        const variables = { index: 'local.position_statistics', body: searchBody };
        const operation = graphqlOperationOf({ query, variables });
        // The envelope's parse travels with the operation: the body the plain search reuses.
        expect(operation.contractVariables?.body).toEqual(searchBody);
        const answer = await answerGraphqlText(graphqlSchema, operation, context, () => {});
        expect(answer).toBe(await fullText(query, variables));
      }),
      { numRuns: 100 },
    );
  });

  it('leaves a __proto__ response name to graphql-js, which writes it', async () => {
    const query = `query ($index: String!, $body: SearchPayload!) { __proto__: searchPositionStatistic(index: $index, body: $body) { __proto__: data { __proto__: id pnl } meta { constructor: total } } }`;
    const variables = { index: 'local.position_statistics', body: { paging: { size: 2, from: 0 } } };
    const expected = await fullText(query, variables);
    expect(expected).toMatch(/^\{"data":\{"__proto__":\{"__proto__":\[\{"__proto__":"/);
    // A plain object would take the name as its prototype and JSON.stringify would drop it.
    expect(plainSearchPlan(graphqlSchema, parse(query))).toBeNull();
    expect(await answerText(query, variables)).toBe(expected);
    const inItems = `query ($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { data { __proto__: id } } }`;
    expect(plainSearchPlan(graphqlSchema, parse(inItems))).toBeNull();
    expect(await answerText(inItems, variables)).toBe(await fullText(inItems, variables));
  });

  it('leaves fragments, __typename, two searches and directives to graphql-js, with the same answer', async () => {
    const variables = {
      index: 'local.position_statistics',
      body: { paging: { size: 5, from: 0 } },
      no: true,
    };
    for (const query of FULL_QUERIES) {
      expect(plainSearchPlan(graphqlSchema, parse(query))).toBeNull();
      const expected = await fullText(query, variables);
      expect(expected).toContain('"data"');
      expect(await answerText(query, variables)).toBe(expected);
    }
  });

  it('gives every error through the full path: variables, the body, the index, the operation name', async () => {
    const [query] = PLAIN_QUERIES as [string];
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ index: 5, body: {} }, undefined],
      [{ body: {} }, undefined],
      [{ index: 'local.position_statistics', body: { paging: { size: 100_000, from: 0 } } }, undefined],
      [
        { index: 'local.position_statistics', body: { filter: { and: [{ field: 'nope', gte: 1 }] } } },
        undefined,
      ],
      [{ index: 'local.positions', body: {} }, undefined],
      [{ index: 'local.position_statistics', body: {} }, 'Other'],
    ];
    for (const [variables, operationName] of cases) {
      expect(plainText(query, variables, operationName)).toBeNull();
      const expected = await fullText(query, variables, operationName);
      expect(expected).toContain('"errors"');
      expect(await answerText(query, variables, operationName)).toBe(expected);
    }
  });

  it('reads numbers of full precision from the index exactly as the stored JSON writes them', async () => {
    const [query] = PLAIN_QUERIES as [string];
    const variables = {
      index: 'local.position_statistics',
      body: {
        filter: { and: [{ field: 'protocol', match: 'PROP_B' }] },
        sorts: [{ field: 'winRate', direction: 'asc' }],
        paging: { size: 40, from: 0 },
      },
    };
    const expected = await fullText(query, variables);
    expect(expected).toMatch(/"pnl":-?\d*\.?\d{12,}/);
    expect(plainText(query, variables)).toBe(expected);
  });

  it('answers a named operation when the name is sent, and inline arguments', async () => {
    const [query] = PLAIN_QUERIES as [string];
    const variables = { index: 'local.position_statistics', body: { paging: { size: 3, from: 1 } } };
    expect(plainText(query, variables, 'Search')).toBe(await fullText(query, variables, 'Search'));
    const inline = `{ searchPositionStatistic(index: "local.position_statistics", body: {paging: {size: 4, from: 2}, sorts: [{field: "pnl", direction: "desc"}]}) { data { id pnl } meta { total } } }`;
    expect(plainText(inline, {})).toBe(await fullText(inline, {}));
  });
});

describe('the GraphQL plain search over a changing index', () => {
  it("searches the index's current generation: a population written after a search is found", async () => {
    const [query] = PLAIN_QUERIES as [string];
    const variables = {
      index: 'local.position_statistics',
      body: { filter: { and: [{ field: 'protocol', match: 'PROP_C' }] }, paging: { size: 5, from: 0 } },
    };
    const totalOf = (text: string | null) =>
      (JSON.parse(text!) as { data: { searchPositionStatistic: { meta: { total: number } } } }).data
        .searchPositionStatistic.meta.total;
    expect(totalOf(plainText(query, variables))).toBe(0);
    replacePopulation(db, 'PROP_C', 'D7', 7, 4);
    const expected = await fullText(query, variables);
    expect(totalOf(expected)).toBe(7);
    expect(plainText(query, variables)).toBe(expected);
  });
});

describe('the REST statistic filter answer made as bytes', () => {
  it('is byte for byte the text made from the rows, with and without the ranking', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('PROP_A', 'PROP_B'),
        fc.array(fc.record({ field: fc.constantFrom(...FIELDS), gte: bound }), { maxLength: 2 }),
        fc.constantFrom(...FIELDS, 'id'),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 200 }),
        fc.boolean(),
        (protocol, ranges, field, direction, limit, offset, withRanking) => {
          const query: StatisticQuery = {
            protocol,
            conditions: [{ from: 'ranges', list: ranges }],
            sort: { field, direction },
            limit,
            offset,
            withRanking,
          };
          const meta = (total: number) => ({ limit, offset, total, totalPages: Math.ceil(total / limit) });
          const page = filterStatistics(db, query);
          const expected = pageJson(page.rows, meta(page.total));
          expect(filterStatisticsAnswer(db, query, meta).toString('utf8')).toBe(expected);
          // The ranking is written by hand: as JSON.stringify writes it (its values are checked
          // against SQLite by statistics-index.test.ts).
          for (const row of withRanking ? page.rows : []) {
            const { ranking } = JSON.parse(row) as { ranking: object };
            expect(row.endsWith(`,"ranking":${JSON.stringify(ranking)}}`)).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
