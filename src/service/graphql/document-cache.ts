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
  private readonly bySchema = new WeakMap<GraphQLSchema, Entries>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxChars = 20_000,
  ) {}

  /** The cached outcome of `query` on `schema`, or `check()`'s, remembered. */
  get(schema: GraphQLSchema, query: string, check: () => CheckedDocument): CheckedDocument {
    let known = this.bySchema.get(schema);
    if (!known) this.bySchema.set(schema, (known = { entries: new Map(), newest: undefined }));
    const { entries } = known;
    const found = entries.get(query);
    if (found) {
      this.hits += 1;
      // Moved to the end unless it is there already (the usual case: one text asked again).
      if (known.newest !== query) {
        entries.delete(query);
        entries.set(query, found);
        known.newest = query;
      }
      return found;
    }
    this.misses += 1;
    const checked = check();
    if (query.length > this.maxChars) return checked;
    entries.set(query, checked);
    known.newest = query;
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
    return checked;
  }
}

/** A schema's texts, least recently used first, and the most recently used one. */
interface Entries {
  entries: Map<string, CheckedDocument>;
  newest: string | undefined;
}

/** The service's one cache (schemas are made once per service; each has its own entries). */
export const documentCache = new DocumentCache();
