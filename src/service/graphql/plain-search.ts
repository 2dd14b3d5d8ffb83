import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLList,
  GraphQLString,
  GraphQLNonNull,
  isLeafType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { UNCOMPUTED_STATISTIC_LABELS, type GraphqlQueryName } from '../../shared/api/graphql';
import type { Population } from '../../shared/statistics-index';
import { storedRowFields } from '../statistics/queries/render-rows';
import type { GraphqlOperation } from './execute';
import {
  argumentBindings,
  boundArguments,
  type ArgumentBinding,
  type BoundArguments,
} from './plain-arguments';
import { planSearch, type GraphqlContext, type SearchArgs } from './resolvers';
import { searchStatisticRefs } from './search';

/**
 * The answer to a statistics search whose selection is plain fields, made without graphql-js's
 * execution: the index's page, then only the selected fields of each record, read from its
 * stored JSON, written straight into the answer's text. Per-field resolution and the parse of
 * each record's whole JSON cost about as much as the index search (docs/graphql.md, "Speed").
 *
 * It answers only what it is sure to answer exactly as graphql-js would, byte for byte: one query
 * operation with one `searchPositionStatistic` (or `homePositionStatistic`) field, no fragments
 * or directives; `__typename` below the root, and a leaf selected twice under one response name
 * (graphql-js merges it at its first place), are written as graphql-js writes them. Arguments
 * passed as plain variables are taken as graphql-js's coercion would take them
 * (plain-arguments.ts), any others are coerced by graphql-js's own functions. Anything else, any
 * error (a variable of the wrong type, a refused body, a value graphql-js would refuse to
 * serialise), and the request takes the full path, which gives the errors.
 *
 * The plan, and the bindings, are made once per query text (document-cache.ts).
 */
export interface PlainSearchPlan {
  operation: OperationDefinitionNode;
  query: GraphqlQueryName;
  field: FieldNode;
  fieldDef: GraphQLField<unknown, unknown>;
  /** The root field's response name, and its page's parts in selection order. */
  key: string;
  parts: PagePart[];
  /** How the root field's arguments come from the variables, or null: graphql-js coerces them. */
  bindings: ArgumentBinding[] | null;
}

type PagePart =
  | { key: string; part: 'meta' | 'data'; fields: LeafField[] }
  | { key: string; part: '__typename'; typename: string };

/** A selected field of an item or of `meta`: its response name, its name, and how it is written. */
interface LeafField {
  key: string;
  name: string;
  nullable: boolean;
  /**
   * A leaf's scalar or enum, a list of non-null strings, always null (labels not computed), or
   * the object's type name (`__typename`).
   */
  shape: { leaf: GraphQLLeafType } | { stringList: true } | { alwaysNull: true } | { typename: string };
}

const SEARCHES: Readonly<Record<string, GraphqlQueryName>> = {
  searchPositionStatistic: 'searchPositionStatistic',
  homePositionStatistic: 'searchPositionStatistic',
};
const UNCOMPUTED: ReadonlySet<string> = new Set(UNCOMPUTED_STATISTIC_LABELS);

/** The plan of a validated document, or null when it must take graphql-js's execution. */
export function plainSearchPlan(schema: GraphQLSchema, document: DocumentNode): PlainSearchPlan | null {
  if (document.definitions.length !== 1) return null;
  const operation = document.definitions[0]!;
  if (operation.kind !== Kind.OPERATION_DEFINITION || operation.operation !== 'query') return null;
  if ((operation.directives?.length ?? 0) > 0) return null;
  const roots = plainFields(operation.selectionSet);
  if (roots?.length !== 1) return null;
  const field = roots[0]!;
  const query = SEARCHES[field.name.value];
  const fieldDef = schema.getQueryType()?.getFields()[field.name.value];
  if (!query || !fieldDef || !field.selectionSet) return null;
  const page = getNamedType(fieldDef.type) as GraphQLObjectType;
  const parts: PagePart[] = [];
  for (const node of plainFields(field.selectionSet) ?? []) {
    const name = node.name.value;
    const key = responseKey(node);
    if (name === TYPENAME && !node.selectionSet) {
      parts.push({ key, part: TYPENAME, typename: page.name });
      continue;
    }
    if ((name !== 'data' && name !== 'meta') || !node.selectionSet) return null;
    const item = getNamedType(page.getFields()[name]!.type) as GraphQLObjectType;
    const fields = leafFields(item, node.selectionSet);
    if (!fields) return null;
    parts.push({ key, part: name, fields });
  }
  if (parts.length === 0) return null;
  const key = responseKey(field);
  if ([key, ...parts.map((p) => p.key)].includes(PROTO)) return null;
  const bindings = argumentBindings(operation, field, fieldDef);
  return { operation, query, field, fieldDef, key, parts, bindings };
}

/**
 * A response name the answer's plain objects cannot hold: assigning it sets the prototype, so
 * JSON.stringify would leave it out, where graphql-js's null-prototype objects write it.
 */
const PROTO = '__proto__';

const TYPENAME = '__typename';

/**
 * The fields of a selection, each response name once, or null when it holds anything else
 * (fragments, directives) or a response name twice other than as the same leaf, which graphql-js
 * merges into its first place.
 */
function plainFields(selectionSet: SelectionSetNode): FieldNode[] | null {
  const byKey = new Map<string, FieldNode>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || (selection.directives?.length ?? 0) > 0) return null;
    const key = responseKey(selection);
    const first = byKey.get(key);
    if (!first) byKey.set(key, selection);
    else if (!sameLeaf(first, selection)) return null;
  }
  return [...byKey.values()];
}

const sameLeaf = (a: FieldNode, b: FieldNode): boolean =>
  a.name.value === b.name.value &&
  !a.selectionSet &&
  !b.selectionSet &&
  (a.arguments?.length ?? 0) === 0 &&
  (b.arguments?.length ?? 0) === 0;

function leafFields(type: GraphQLObjectType, selectionSet: SelectionSetNode): LeafField[] | null {
  const nodes = plainFields(selectionSet);
  if (!nodes) return null;
  const out: LeafField[] = [];
  for (const node of nodes) {
    if (node.selectionSet || (node.arguments?.length ?? 0) > 0) return null;
    const name = node.name.value;
    const key = responseKey(node);
    if (key === PROTO) return null;
    if (name === TYPENAME) {
      out.push({ key, name, nullable: false, shape: { typename: type.name } });
      continue;
    }
    const def = type.getFields()[name];
    const shape = def && leafShape(def.type, name);
    if (!shape) return null;
    out.push({ key, name, nullable: !(def.type instanceof GraphQLNonNull), shape });
  }
  return out;
}

function leafShape(type: GraphQLOutputType, name: string): LeafField['shape'] | null {
  if (UNCOMPUTED.has(name)) return { alwaysNull: true };
  const nullable = getNullableType(type);
  if (isLeafType(nullable)) return { leaf: nullable };
  // `indexTokens` and `pairs`: [String!] (graphql-js writes such a list of strings as it is).
  if (nullable instanceof GraphQLList && String(nullable.ofType) === 'String!') return { stringList: true };
  return null;
}

const responseKey = (node: FieldNode): string => node.alias?.value ?? node.name.value;

/**
 * The answer's text for `operation` under `plan`, or null when the full path must answer it (it
 * then also gives any error). Synchronous: nothing here waits.
 */
export function answerPlainSearch(
  schema: GraphQLSchema,
  plan: PlainSearchPlan,
  operation: GraphqlOperation,
  context: GraphqlContext,
): string | null {
  const named = plan.operation.name?.value;
  if (operation.operationName != null && operation.operationName !== named) return null;
  const bound = plan.bindings
    ? boundArguments(plan.bindings, operation)
    : coercedArguments(schema, plan, operation);
  if (!bound) return null;
  let search: ReturnType<typeof searchStatisticRefs>;
  try {
    const args = bound.args as unknown as SearchArgs;
    const { set, request } = planSearch(plan.query, args, context, bound.parsedBody);
    if (set.kind !== 'position_statistics' || request.implied.length > 0) return null;
    search = searchStatisticRefs(context.db, set, request);
  } catch {
    return null;
  }
  const page: Record<string, unknown> = {};
  for (const part of plan.parts) {
    const written =
      part.part === TYPENAME
        ? part.typename
        : part.part === 'meta'
          ? pageMeta(part.fields, search.meta)
          : items(part.fields, search, context);
    if (written === null) return null;
    page[part.key] = written;
  }
  return JSON.stringify({ data: { [plan.key]: page } });
}

/** The arguments as graphql-js's own functions coerce them, or null on any error. */
function coercedArguments(
  schema: GraphQLSchema,
  plan: PlainSearchPlan,
  operation: GraphqlOperation,
): BoundArguments | null {
  const variables = getVariableValues(
    schema,
    plan.operation.variableDefinitions ?? [],
    operation.variables ?? {},
    { maxErrors: 1 },
  );
  if ('errors' in variables) return null;
  try {
    return { args: getArgumentValues(plan.fieldDef, plan.field, variables.coerced) };
  } catch {
    return null;
  }
}

function pageMeta(
  fields: readonly LeafField[],
  meta: Record<string, unknown>,
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = written(field, meta[field.name]);
    if (value === undefined) return null;
    out[field.key] = value;
  }
  return out;
}

function items(
  fields: readonly LeafField[],
  search: ReturnType<typeof searchStatisticRefs>,
  context: GraphqlContext,
): Record<string, unknown>[] | null {
  const { refs } = search;
  const readers = refs.map((ref) => readersOf(ref.population, fields));
  // The fields some record of the page reads from its stored JSON, read for the whole page.
  const fromJson = fields.flatMap((_, i) => (readers.some((r) => r.fromJson[i]) ? [i] : []));
  const stored =
    fromJson.length > 0
      ? storedRowFields(
          context.db,
          refs,
          fromJson.map((i) => fields[i]!.name),
        )
      : null;
  const json: unknown[] = new Array<unknown>(fields.length);
  const out: Record<string, unknown>[] = [];
  for (let r = 0; r < refs.length; r += 1) {
    const { row } = refs[r]!;
    const { read } = readers[r]!;
    const values = stored?.[r];
    // The record's JSON values where its readers expect them: at their field's place.
    if (values) for (let j = 0; j < fromJson.length; j += 1) json[fromJson[j]!] = values[j];
    const item: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i += 1) {
      const value = read[i]!(row, json);
      if (value === undefined) return null;
      item[fields[i]!.key] = value;
    }
    out.push(item);
  }
  return out;
}

/**
 * Reads one field of record `row` (`json`: its stored-JSON values at their fields' places): the
 * value as graphql-js writes it, or undefined when it would not write it as it is.
 */
type Reader = (row: number, json: readonly unknown[]) => unknown;

/** A population's readers of a selection's fields (made once: populations never change). */
interface Readers {
  read: Reader[];
  fromJson: boolean[];
}

function readersOf(population: Population, fields: readonly LeafField[]): Readers {
  let known = readersByPopulation.get(population);
  if (!known) readersByPopulation.set(population, (known = new WeakMap()));
  let readers = known.get(fields);
  if (!readers) {
    const made = fields.map((field, i) => readerOf(population, field, i));
    readers = { read: made.map((m) => m.read), fromJson: made.map((m) => m.fromJson) };
    known.set(fields, readers);
  }
  return readers;
}
const readersByPopulation = new WeakMap<Population, WeakMap<readonly LeafField[], Readers>>();

/**
 * Where a record's field is read: the index's columns hold the record's ids, texts and numbers
 * exactly as SQLite stored them, and the stored JSON was rendered from the same row (numbers at
 * round-trip precision), so a Float field the index holds as a number, or a String, ID or enum
 * field it holds as a text, is read there without touching SQLite; anything else (times, which
 * the index holds as epoch numbers; booleans; lists) from the stored JSON.
 */
function readerOf(population: Population, field: LeafField, at: number): { read: Reader; fromJson: boolean } {
  const { shape } = field;
  const index = (read: Reader) => ({ read, fromJson: false });
  if ('typename' in shape || 'alwaysNull' in shape) {
    const value = written(field, null);
    return index(() => value);
  }
  const kind = 'leaf' in shape ? population.kindOf(field.name) : undefined;
  if ('leaf' in shape && shape.leaf === GraphQLFloat && kind === 'number') {
    const column = population.number(field.name);
    const missing = field.nullable ? null : undefined;
    // Float writes a finite number as it is; a missing value is NaN in a column (null in the
    // JSON); graphql-js refuses an infinite one.
    return index((row) => {
      const value = column.at(row);
      if (Number.isFinite(value)) return value;
      return Number.isNaN(value) ? missing : undefined;
    });
  }
  const textual =
    'leaf' in shape &&
    (shape.leaf === GraphQLString || shape.leaf === GraphQLID || shape.leaf instanceof GraphQLEnumType);
  if (textual && kind === 'constant') {
    const value = written(field, population.constant(field.name));
    return index(() => value);
  }
  if (textual && kind === 'text') {
    const column = population.text(field.name);
    // String and ID write a string as it is; an enum's value is checked.
    const plain = !(shape.leaf instanceof GraphQLEnumType);
    return index((row) => {
      const value = column.at(row);
      return plain && typeof value === 'string' ? value : written(field, value);
    });
  }
  return { read: (_row, json) => written(field, json[at]), fromJson: true };
}

/**
 * The value as graphql-js writes it, or undefined when it would not write it as it is (an error,
 * or a conversion): then the full path answers.
 */
function written(field: LeafField, value: unknown): unknown {
  const { shape } = field;
  if ('typename' in shape) return shape.typename;
  if ('alwaysNull' in shape) return null;
  if (value === null || value === undefined) return field.nullable ? null : undefined;
  if ('stringList' in shape)
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  try {
    return shape.leaf.serialize(value) === value ? value : undefined;
  } catch {
    return undefined;
  }
}
