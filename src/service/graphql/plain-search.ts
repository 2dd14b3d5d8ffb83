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
import { argumentBindings, boundArguments, type ArgumentBinding } from './plain-arguments';
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
 * What depends only on the query text is made once with the plan (document-cache.ts): the
 * bindings, and every key of the answer as JSON text, so a request writes the answer's text in one
 * pass, value after value, without an object per record (docs/graphql.md, "Speed").
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
  /** `{"data":{"<key>":` : the answer's text before the page. */
  head: string;
}

/** A part of the page; `prefix` is its key as JSON text, after `{` or `,`. */
type PagePart =
  | { key: string; prefix: string; part: 'meta' | 'data'; fields: LeafField[] }
  | { key: string; prefix: string; part: '__typename'; typename: string };

/** A selected field of an item or of `meta`: its response name, its name, and how it is written. */
interface LeafField {
  key: string;
  /** `{"<key>":` for the first field of an object, else `,"<key>":`. */
  prefix: string;
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
    const prefix = keyPrefix(parts.length, key);
    if (name === TYPENAME && !node.selectionSet) {
      parts.push({ key, prefix, part: TYPENAME, typename: page.name });
      continue;
    }
    if ((name !== 'data' && name !== 'meta') || !node.selectionSet) return null;
    const item = getNamedType(page.getFields()[name]!.type) as GraphQLObjectType;
    const fields = leafFields(item, node.selectionSet);
    if (!fields) return null;
    parts.push({ key, prefix, part: name, fields });
  }
  if (parts.length === 0) return null;
  const key = responseKey(field);
  const bindings = argumentBindings(operation, field, fieldDef);
  const head = `{"data":${keyPrefix(0, key)}`;
  return { operation, query, field, fieldDef, key, parts, bindings, head };
}

/** A member's key as JSON text: `{"key":` when it is an object's first member, else `,"key":`. */
const keyPrefix = (at: number, key: string): string => `${at === 0 ? '{' : ','}${JSON.stringify(key)}:`;

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
    const prefix = keyPrefix(out.length, key);
    if (name === TYPENAME) {
      out.push({ key, prefix, name, nullable: false, shape: { typename: type.name } });
      continue;
    }
    const def = type.getFields()[name];
    const shape = def && leafShape(def.type, name);
    if (!shape) return null;
    out.push({ key, prefix, name, nullable: !(def.type instanceof GraphQLNonNull), shape });
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
  let text = plan.head;
  for (const part of plan.parts) {
    const written =
      part.part === TYPENAME
        ? JSON.stringify(part.typename)
        : part.part === 'meta'
          ? metaText(part.fields, search.meta)
          : itemsText(part.fields, search, context);
    if (written === null) return null;
    text += part.prefix + written;
  }
  return `${text}}}}`;
}

/** The arguments as graphql-js's own functions coerce them, or null on any error. */
function coercedArguments(
  schema: GraphQLSchema,
  plan: PlainSearchPlan,
  operation: GraphqlOperation,
): { args: Record<string, unknown>; parsedBody?: undefined } | null {
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

function metaText(fields: readonly LeafField[], meta: Record<string, unknown>): string | null {
  let text = '';
  for (const field of fields) {
    const value = jsonText(written(field, meta[field.name]));
    if (value === undefined) return null;
    text += field.prefix + value;
  }
  return `${text}}`;
}

/** The page's items as JSON text: `[{…},…]`. */
function itemsText(
  fields: readonly LeafField[],
  search: ReturnType<typeof searchStatisticRefs>,
  context: GraphqlContext,
): string | null {
  const { refs } = search;
  const readers = refs.map((ref) => readersOf(ref.population, fields));
  // The fields some record of the page reads from its stored JSON, read for the whole page.
  const fromJson = readers.some((r) => r.anyFromJson)
    ? fields.flatMap((_, i) => (readers.some((r) => r.fromJson[i]) ? [i] : []))
    : [];
  const stored =
    fromJson.length > 0
      ? storedRowFields(
          context.db,
          refs,
          fromJson.map((i) => fields[i]!.name),
        )
      : null;
  const json: unknown[] = new Array<unknown>(fields.length);
  let text = '[';
  for (let r = 0; r < refs.length; r += 1) {
    const { row } = refs[r]!;
    const { read } = readers[r]!;
    const values = stored?.[r];
    // The record's JSON values where its readers expect them: at their field's place.
    if (values) for (let j = 0; j < fromJson.length; j += 1) json[fromJson[j]!] = values[j];
    if (r > 0) text += ',';
    for (let i = 0; i < fields.length; i += 1) {
      const value = read[i]!(row, json);
      if (value === undefined) return null;
      text += fields[i]!.prefix + value;
    }
    text += '}';
  }
  return `${text}]`;
}

/**
 * Reads one field of record `row` (`json`: its stored-JSON values at their fields' places): the
 * value's JSON text as graphql-js writes it, or undefined when it would not write it as it is.
 */
type Reader = (row: number, json: readonly unknown[]) => string | undefined;

/** A population's readers of a selection's fields (made once: populations never change). */
interface Readers {
  read: Reader[];
  fromJson: boolean[];
  anyFromJson: boolean;
}

function readersOf(population: Population, fields: readonly LeafField[]): Readers {
  let known = readersByPopulation.get(population);
  if (!known) readersByPopulation.set(population, (known = new WeakMap()));
  let readers = known.get(fields);
  if (!readers) {
    const made = fields.map((field, i) => readerOf(population, field, i));
    const fromJson = made.map((m) => m.fromJson);
    readers = { read: made.map((m) => m.read), fromJson, anyFromJson: fromJson.includes(true) };
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
    const text = jsonText(written(field, null));
    return index(() => text);
  }
  const kind = 'leaf' in shape ? population.kindOf(field.name) : undefined;
  if ('leaf' in shape && shape.leaf === GraphQLFloat && kind === 'number') {
    const column = population.number(field.name);
    const missing = field.nullable ? 'null' : undefined;
    // Float writes a finite number as it is (JSON's text of a finite number is String's); a
    // missing value is NaN in a column (null in the JSON); graphql-js refuses an infinite one.
    return index((row) => {
      const value = column.at(row);
      if (Number.isFinite(value)) return String(value);
      return Number.isNaN(value) ? missing : undefined;
    });
  }
  const textual =
    'leaf' in shape &&
    (shape.leaf === GraphQLString || shape.leaf === GraphQLID || shape.leaf instanceof GraphQLEnumType);
  if (textual && kind === 'constant') {
    const text = jsonText(written(field, population.constant(field.name)));
    return index(() => text);
  }
  if (textual && kind === 'text') {
    const column = population.text(field.name);
    // String and ID write a string as it is; an enum's value is checked.
    const plain = !(shape.leaf instanceof GraphQLEnumType);
    return index((row) => {
      const value = column.at(row);
      return plain && typeof value === 'string' ? JSON.stringify(value) : jsonText(written(field, value));
    });
  }
  return { read: (_row, json) => jsonText(written(field, json[at])), fromJson: true };
}

/**
 * A written value's JSON text, as JSON.stringify writes it inside the answer (a number here is
 * finite: graphql-js's Int and Float refuse any other), or undefined for undefined.
 */
function jsonText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
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
