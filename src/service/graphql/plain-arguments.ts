import {
  getNullableType,
  GraphQLString,
  Kind,
  type FieldNode,
  type GraphQLField,
  type OperationDefinitionNode,
  type TypeNode,
} from 'graphql';
import type { GraphqlSearchBody } from '../../shared/api/graphql';
import type { GraphqlOperation } from './execute';
import { SearchPayloadScalar } from './scalars';

/**
 * How one argument of a plain search's root field comes from the variables: `index: $index`,
 * `body: $body`, where the variable's type is the argument's own (`String!`, `SearchPayload` or
 * `SearchPayload!`) and has no default. For such arguments graphql-js's coercion
 * (`getVariableValues`, then `getArgumentValues`) only checks that a non-null variable is given
 * and not null, and that a `String` is a string: `boundArguments` does the same checks and gives
 * the request to graphql-js on any failure, which then answers the error (docs/graphql.md, "Speed").
 */
export interface ArgumentBinding {
  argument: string;
  variable: string;
  nonNull: boolean;
  /** `String` (checked to be a string), else `SearchPayload` (any JSON, passed as it is). */
  string: boolean;
}

/**
 * The bindings of the root field's arguments, or null when some argument is written inline, a
 * variable has a default, a type other than the argument's, or a directive: then graphql-js's
 * own functions coerce them.
 */
export function argumentBindings(
  operation: OperationDefinitionNode,
  field: FieldNode,
  fieldDef: GraphQLField<unknown, unknown>,
): ArgumentBinding[] | null {
  const definitions = operation.variableDefinitions ?? [];
  const bindings: ArgumentBinding[] = [];
  for (const node of field.arguments ?? []) {
    const def = fieldDef.args.find((a) => a.name === node.name.value);
    if (!def || def.defaultValue !== undefined || node.value.kind !== Kind.VARIABLE) return null;
    const variable = node.value.name.value;
    const definition = definitions.find((d) => d.variable.name.value === variable);
    if (!definition || definition.defaultValue || (definition.directives?.length ?? 0) > 0) return null;
    const type = getNullableType(def.type);
    if (type !== GraphQLString && type !== SearchPayloadScalar) return null;
    if (namedTypeOf(definition.type) !== type.name) return null;
    const nonNull = definition.type.kind === Kind.NON_NULL_TYPE;
    bindings.push({ argument: def.name, variable, nonNull, string: type === GraphQLString });
  }
  // Every variable is one of these (validation refuses unused ones; this only makes sure).
  const bound = new Set(bindings.map((b) => b.variable));
  if (bound.size !== bindings.length || definitions.length !== bindings.length) return null;
  return bindings;
}

/** `Name` or `Name!`: the name; a list type: null. */
function namedTypeOf(type: TypeNode): string | null {
  const inner = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
  return inner.kind === Kind.NAMED_TYPE ? inner.name.value : null;
}

/** The arguments, and the body as the contract already parsed it when the envelope's check did. */
export interface BoundArguments {
  args: Record<string, unknown>;
  parsedBody?: GraphqlSearchBody;
}

/**
 * The arguments graphql-js would coerce from `operation.variables` under `bindings`, or null when
 * it would answer an error instead. A variable absent or null is left out or passed as null, as
 * graphql-js does (the resolver reads both as "no body").
 */
export function boundArguments(
  bindings: readonly ArgumentBinding[],
  operation: GraphqlOperation,
): BoundArguments | null {
  const variables = operation.variables ?? {};
  const args: Record<string, unknown> = {};
  let parsedBody: GraphqlSearchBody | undefined;
  for (const { argument, variable, nonNull, string } of bindings) {
    const given = Object.hasOwn(variables, variable);
    const value = given ? variables[variable] : undefined;
    if (value === undefined || value === null) {
      if (nonNull) return null;
      if (given) args[argument] = null;
      continue;
    }
    if (string && typeof value !== 'string') return null;
    args[argument] = value;
    // The envelope's check parsed `variables.body` with the very schema the resolver applies.
    if (argument === 'body' && variable === 'body') parsedBody = operation.contractVariables?.body;
  }
  return { args, ...(parsedBody && { parsedBody }) };
}
