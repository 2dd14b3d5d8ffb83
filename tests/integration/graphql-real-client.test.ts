// The API's real web client (copin-protocol/copin-interface) against the local service: its six
// GraphQL query texts, read from tests/fixtures/real-client/ (copied from its source, see each
// file's head), run over HTTP as the client sends them (Apollo adds __typename to every selection
// set) and as written. Every one must answer without errors and with its data present; the
// statistics the client selects must be the engine's (docs/graphql.md, docs/statistics.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, visit, type FieldNode, type SelectionSetNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStatistic } from '../../src/service/statistics/formulas/statistics';
import { markPrices, traderFacts } from '../../src/service/statistics/compute/facts';
import { UNCOMPUTED_STATISTIC_LABELS } from '../../src/shared/api/graphql';
import { STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import { apiKeyFor } from '../support/credentials';
import { postJson, startTestService, type RunningService } from '../support/service';

const FIXTURES = join(__dirname, '..', 'fixtures', 'real-client');
const query = (name: string) => readFileSync(join(FIXTURES, `${name}.graphql`), 'utf8');

const TYPENAME: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };

/** What Apollo Client sends: the document with __typename in every selection set below the root. */
function withTypenames(text: string): string {
  const document = visit(parse(text), {
    SelectionSet: {
      leave(node: SelectionSetNode, _key, parent) {
        const isRoot = parent !== undefined && !Array.isArray(parent) && 'operation' in parent;
        const has = node.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename');
        return isRoot || has ? node : { ...node, selections: [...node.selections, TYPENAME] };
      },
    },
  });
  return print(document);
}

let svc: RunningService;
let apiKey: string;
let protocol: string;

beforeAll(async () => {
  // The client's indexes are `copin.<kind>`: the service is started with that namespace.
  svc = await startTestService({ seedFixture: true, graphqlNamespace: 'copin' });
  apiKey = apiKeyFor(svc);
  protocol = svc.service.db
    .prepare('SELECT protocol FROM statistics WHERE gen_to IS NULL GROUP BY protocol ORDER BY count(*) DESC')
    .pluck()
    .get() as string;
});
afterAll(() => svc.close());

type Page = { data: Record<string, unknown>[]; meta: Record<string, unknown> };

/** Runs a query text with variables; fails on an HTTP error or any GraphQL error. */
async function run(text: string, name: string, variables: Record<string, unknown>): Promise<Page> {
  const res = await postJson(
    `${svc.url}/graphql`,
    { operationName: 'Search', query: text, variables },
    { 'x-api-key': apiKey },
  );
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return (res.body.data as Record<string, Page>)[name]!;
}

/** The variables the client's explorer sends: its protocols, a window, a range, a sort, a page. */
const statisticVariables = () => ({
  index: 'copin.position_statistics',
  body: {
    filter: {
      and: [
        { field: 'totalTrade', gte: 2 },
        { field: 'protocol', in: [protocol] },
        { field: 'type', match: 'FULL' },
      ],
    },
    sorts: [{ field: 'pnl', direction: 'desc' }],
    paging: { size: 20, from: 0 },
  },
});

const positionVariables = (status: 'OPEN' | 'CLOSE') => ({
  index: 'copin.positions',
  protocols: [protocol],
  body: {
    filter: { and: [{ field: 'status', match: status }] },
    sorts: [{ field: status === 'OPEN' ? 'openBlockTime' : 'closeBlockTime', direction: 'desc' }],
    paging: { size: 20, from: 0 },
  },
});

const CASES = [
  {
    file: 'search-position-statistic',
    name: 'searchPositionStatistic',
    item: 'PositionStatistic',
    variables: statisticVariables,
  },
  {
    file: 'home-position-statistic',
    name: 'homePositionStatistic',
    item: 'PositionStatistic',
    variables: statisticVariables,
  },
  {
    file: 'live-position',
    name: 'livePosition',
    item: 'Position',
    variables: () => positionVariables('CLOSE'),
  },
  {
    file: 'live-position-id',
    name: 'livePosition',
    item: 'Position',
    variables: () => positionVariables('CLOSE'),
  },
  {
    file: 'search-top-opening-position',
    name: 'searchTopOpeningPosition',
    item: 'Position',
    variables: () => positionVariables('OPEN'),
  },
  {
    file: 'search-orders',
    name: 'searchOrders',
    item: 'Order',
    variables: () => ({
      index: 'copin.orders',
      body: {
        filter: { and: [{ field: 'protocol', match: protocol }] },
        sorts: [{ field: 'blockTime', direction: 'desc' }],
        paging: { size: 20, from: 0 },
      },
    }),
  },
] as const;

describe("the real client's query texts", () => {
  for (const c of CASES) {
    it(`${c.file}: answers as sent (with __typename) and as written, with its data`, async () => {
      const text = query(c.file);
      const sent = await run(withTypenames(text), c.name, c.variables());
      expect(sent.data.length).toBeGreaterThan(0);
      expect(sent.meta).toMatchObject({ __typename: 'PageMeta', limit: 20, offset: 0 });
      expect((sent.meta.total as number) > 0).toBe(true);
      for (const item of sent.data) expect(item.__typename).toBe(c.item);
      // Every field the text selects is in the answer (GraphQL writes null for a null, never omits).
      const selected = selectedItemFields(text);
      for (const item of sent.data)
        expect(Object.keys(item).sort()).toEqual([...selected, '__typename'].sort());
      const written = await run(text, c.name, c.variables());
      expect(written.data.map((i) => i.id)).toEqual(sent.data.map((i) => i.id));
    });
  }
});

/** The distinct fields selected under `data { … }` of a query text. */
function selectedItemFields(text: string): string[] {
  const names = new Set<string>();
  visit(parse(text), {
    Field(node) {
      if (node.name.value !== 'data' || !node.selectionSet) return;
      for (const s of node.selectionSet.selections) if (s.kind === Kind.FIELD) names.add(s.name.value);
    },
  });
  return [...names];
}

describe('the statistics the explorer selects', () => {
  it("are the engine's figures for each record, and the label lists are null", async () => {
    const page = await run(
      withTypenames(query('search-position-statistic')),
      'searchPositionStatistic',
      statisticVariables(),
    );
    const added = STATISTIC_NUMERIC_FIELDS.slice(STATISTIC_NUMERIC_FIELDS.indexOf('longPnl'));
    expect(added).toContain('realisedSortinoRatio');
    const db = svc.service.db;
    for (const item of page.data.slice(0, 5)) {
      const facts = traderFacts(db, item.account as string, protocol);
      const expected = computeStatistic(
        facts,
        'FULL',
        Date.parse(item.statisticAt as string),
        markPrices(db),
      )!;
      for (const field of added) expect(item[field], field).toEqual(expected[field]);
      for (const label of UNCOMPUTED_STATISTIC_LABELS) expect(item[label]).toBeNull();
    }
    // Not all degenerate: the fixture's traders have spread, streaks and both sides.
    const ratios = page.data.map((i) => i.sharpeRatio).filter((v) => typeof v === 'number');
    expect(ratios.length).toBeGreaterThan(0);
    expect(page.data.some((i) => (i.maxWinStreak as number) > 1)).toBe(true);
    expect(
      page.data.some((i) => (i.totalShortVolume as number) > 0 && (i.totalLongVolume as number) > 0),
    ).toBe(true);
  });

  it('can be filtered and sorted on, like every numeric statistic', async () => {
    const vars = statisticVariables();
    vars.body.filter.and.push({ field: 'maxWinStreak', gte: 3 } as never);
    (vars.body as { sorts: unknown }).sorts = [{ field: 'sharpeRatio', direction: 'desc' }];
    const page = await run(
      'query Search($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { data { id maxWinStreak sharpeRatio } meta { total } } }',
      'searchPositionStatistic',
      vars,
    );
    expect(page.data.length).toBeGreaterThan(0);
    for (const item of page.data) expect(item.maxWinStreak as number).toBeGreaterThanOrEqual(3);
    const sharpe = page.data.map((i) => i.sharpeRatio as number | null);
    const numbers = sharpe.filter((v): v is number => v !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  });
});
