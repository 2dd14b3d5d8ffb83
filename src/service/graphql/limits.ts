import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { GRAPHQL_QUERY_NAMES } from '../../shared/api/graphql';

/**
 * Bounds that keep a hostile query from tying up the service. The data types are flat (a page,
 * its items, their scalars), so real queries are at most 3 fields deep; only introspection
 * (`__type { fields { type { ofType ... } } }`) nests deeper, and the standard introspection
 * query fits every bound.
 */
export const GRAPHQL_LIMITS = {
  /** Lexer tokens of the query text: bounds parsing and the quadratic validation rules. */
  maxTokens: 3000,
  /** Fields nested inside each other. */
  maxDepth: 15,
  /** Fields, fragment spreads and inline fragments visited with fragments expanded. */
  maxSelections: 1500,
  /** Searches (root fields of the four queries, counted by response key): each runs SQL. */
  maxSearches: 4,
  /** Errors graphql-js reports before it gives up validating. */
  maxValidationErrors: 20,
  /** Conditions in one body, `or` members included: SQLite's expression depth is finite. */
  maxConditions: 100,
  /** Values bound by one body's conditions (`in`, `nin` lists included). */
  maxBoundValues: 5000,
  /** `paging.from` must fit the `Int` of `meta.offset`. */
  maxOffset: 2_147_483_647,
} as const;

const SEARCH_NAMES: ReadonlySet<string> = new Set(GRAPHQL_QUERY_NAMES);

interface Tally {
  selections: number;
  depth: number;
  searches: Set<string>;
  /** True once a bound is crossed: the walk stops there, so its cost stays bounded too. */
  over: boolean;
}

/**
 * Validation rule run before graphql-js's own rules: walks each operation with fragments
 * expanded and refuses it when it is too deep, too wide or runs too many searches. Expanding
 * fragments matters because a few spreads can multiply a small text into millions of fields.
 */
export function QueryCostRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const tally = measure(operation, (name) => context.getFragment(name) ?? undefined);
      for (const message of overruns(tally))
        context.reportError(new GraphQLError(message, { nodes: operation }));
      return false;
    },
  };
}

function measure(
  operation: OperationDefinitionNode,
  fragment: (name: string) => FragmentDefinitionNode | undefined,
): Tally {
  const tally: Tally = { selections: 0, depth: 0, searches: new Set(), over: false };
  walk(operation.selectionSet, 1, new Set(), fragment, tally);
  return tally;
}

function walk(
  set: SelectionSetNode,
  depth: number,
  expanding: Set<string>,
  fragment: (name: string) => FragmentDefinitionNode | undefined,
  tally: Tally,
): void {
  for (const selection of set.selections) {
    if (tally.over) return;
    tally.selections += 1;
    if (tally.selections > GRAPHQL_LIMITS.maxSelections) tally.over = true;
    if (selection.kind === Kind.FIELD) {
      tally.depth = Math.max(tally.depth, depth);
      if (depth > GRAPHQL_LIMITS.maxDepth) tally.over = true;
      if (depth === 1 && SEARCH_NAMES.has(selection.name.value))
        tally.searches.add(selection.alias?.value ?? selection.name.value);
      if (selection.selectionSet) walk(selection.selectionSet, depth + 1, expanding, fragment, tally);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      walk(selection.selectionSet, depth, expanding, fragment, tally);
    } else {
      // A fragment cycle is reported by graphql-js's NoFragmentCyclesRule; here it only must not loop.
      const name = selection.name.value;
      const target = fragment(name);
      if (!target || expanding.has(name)) continue;
      expanding.add(name);
      walk(target.selectionSet, depth, expanding, fragment, tally);
      expanding.delete(name);
    }
  }
}

function overruns(tally: Tally): string[] {
  const { maxDepth, maxSelections, maxSearches } = GRAPHQL_LIMITS;
  const messages: string[] = [];
  if (tally.depth > maxDepth) messages.push(`the query nests fields more than ${maxDepth} deep`);
  if (tally.selections > maxSelections)
    messages.push(`the query selects more than ${maxSelections} fields and fragments (fragments expanded)`);
  if (tally.searches.size > maxSearches)
    messages.push(`the query runs ${tally.searches.size} searches; at most ${maxSearches} are allowed`);
  return messages;
}
