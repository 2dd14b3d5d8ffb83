import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { PlainSearchPlan } from './plain-search';

/**
 * A query text's outcome: its parsed, validated document (and, when it is a plain statistics
 * search, how to answer it without graphql-js's execution: plain-search.ts), or the errors that
 * refused it.
 */
export type CheckedDocument =
  { document: DocumentNode; plain?: PlainSearchPlan | null } | { errors: readonly GraphQLError[] };

/**
 * Parsed and validated documents by query text, per schema: clients send a few distinct texts
 * with new variables each time, so parse and validate are paid once per text (issue #19). The
 * least recently used text goes first past `maxEntries`, and a text longer than `maxChars` is
 * checked every time but not kept, so the cache holds at most about maxEntries × maxChars.
 */
export class DocumentCache {
  private readonly bySchema = new WeakMap<GraphQLSchema, Map<string, CheckedDocument>>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxChars = 20_000,
  ) {}

  /** The cached outcome of `query` on `schema`, or `check()`'s, remembered. */
  get(schema: GraphQLSchema, query: string, check: () => CheckedDocument): CheckedDocument {
    let entries = this.bySchema.get(schema);
    if (!entries) this.bySchema.set(schema, (entries = new Map()));
    const found = entries.get(query);
    if (found) {
      this.hits += 1;
      entries.delete(query);
      entries.set(query, found);
      return found;
    }
    this.misses += 1;
    const checked = check();
    if (query.length > this.maxChars) return checked;
    entries.set(query, checked);
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
    return checked;
  }
}

/** The service's one cache (schemas are made once per service; each has its own entries). */
export const documentCache = new DocumentCache();
