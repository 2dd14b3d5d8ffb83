// GraphQL's parsed-document cache (src/service/graphql/document-cache.ts): parse and validate are
// paid once per distinct query text, refusals are remembered too, and the cache stays bounded.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DocumentCache, documentCache } from '../../../../src/service/graphql/document-cache';
import { runGraphql } from '../../../../src/service/graphql/execute';
import type { GraphqlContext } from '../../../../src/service/graphql/resolvers';
import { graphqlSchema } from '../../../../src/service/graphql/schema';

const context = { db: null, namespace: 'local', knownProtocols: new Set() } as unknown as GraphqlContext;
const run = (query: string) => runGraphql(graphqlSchema, { query, variables: {} }, context, () => {});

describe('the parsed-document cache', () => {
  it('checks a query text once and answers a repeat from the cache', async () => {
    const query = `{ __typename } # ${Math.random()}`;
    const misses = documentCache.misses;
    const hits = documentCache.hits;
    const first = await run(query);
    const second = await run(query);
    expect(first).toEqual({ data: { __typename: 'Query' } });
    expect(second).toEqual(first);
    expect(documentCache.misses - misses).toBe(1);
    expect(documentCache.hits - hits).toBe(1);
  });

  it('remembers a refusal: the same errors again, without checking again', async () => {
    const query = `{ noSuchField } # ${Math.random()}`;
    const hits = documentCache.hits;
    const first = await run(query);
    const second = await run(query);
    expect(first.errors?.[0]?.message).toMatch(/noSuchField/);
    expect(second).toEqual(first);
    expect(documentCache.hits - hits).toBe(1);
  });

  it('holds at most maxEntries texts, the least recently used going first, and no long text', () => {
    const cache = new DocumentCache(2, 30);
    const checks: string[] = [];
    const get = (query: string) =>
      cache.get(graphqlSchema, query, () => {
        checks.push(query);
        return { document: parse(query) };
      });
    get('{ a }');
    get('{ b }');
    get('{ a }'); // a is now the most recent
    get('{ c }'); // pushes b out
    get('{ a }');
    get('{ b }');
    const long = `{ a${' '.repeat(40)} }`;
    get(long);
    get(long);
    expect(checks).toEqual(['{ a }', '{ b }', '{ c }', '{ b }', long, long]);
  });

  it('holds at most maxTotalChars of texts: a parsed document takes ~35 bytes a character', () => {
    // 500 texts of ~9,000 characters (3,000 tokens each, within the service's bounds) held 154 MB
    // of parsed documents under the count alone.
    const cache = new DocumentCache(500, 20_000, 25_000);
    const checks: string[] = [];
    const text = (n: number) => `{ a${n}${' '.repeat(9_000)} }`;
    const get = (query: string) =>
      cache.get(graphqlSchema, query, () => {
        checks.push(query);
        return { document: parse(query) };
      });
    for (let n = 0; n < 5; n += 1) get(text(n));
    // Two texts of ~9,000 fit in 25,000, not three: the three oldest went.
    expect(cache.heldChars(graphqlSchema)).toBe(text(3).length + text(4).length);
    get(text(4));
    get(text(3));
    expect(checks).toHaveLength(5);
    get(text(2));
    expect(checks).toHaveLength(6);
    expect(cache.heldChars(graphqlSchema)).toBeLessThanOrEqual(25_000);
  });
});
