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
 * least recently used text goes first past `maxEntries` texts or `maxTotalChars` characters of
 * them, and a text longer than `maxChars` is checked every time but not kept. A parsed document
 * (its nodes, tokens and locations) takes ~35 bytes a character of its text: 500 texts of ~9,000
 * characters held 154 MB under the count alone, so the characters are bounded too
 * (docs/graphql.md, "Speed").
 */
export class DocumentCache {
  private readonly bySchema = new WeakMap<GraphQLSchema, Entries>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxChars = 20_000,
    private readonly maxTotalChars = 1_000_000,
  ) {}

  /** Characters of the texts held for `schema` (tests read it). */
  heldChars(schema: GraphQLSchema): number {
    return this.bySchema.get(schema)?.chars ?? 0;
  }

  /** The cached outcome of `query` on `schema`, or `check()`'s, remembered. */
  get(schema: GraphQLSchema, query: string, check: () => CheckedDocument): CheckedDocument {
    let known = this.bySchema.get(schema);
    if (!known) this.bySchema.set(schema, (known = { entries: new Map(), newest: undefined, chars: 0 }));
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
    known.chars += query.length;
    while (entries.size > this.maxEntries || known.chars > this.maxTotalChars) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
      known.chars -= oldest.length;
    }
    return checked;
  }
}

/** A schema's texts, least recently used first, and the most recently used one. */
interface Entries {
  entries: Map<string, CheckedDocument>;
  newest: string | undefined;
  /** Characters of the texts held. */
  chars: number;
}

/** The service's one cache (schemas are made once per service; each has its own entries). */
export const documentCache = new DocumentCache();
