// The plain search's arguments taken from the variables without graphql-js's coercion
// (src/service/graphql/plain-arguments.ts): which query texts get bindings, and that the bound
// arguments are graphql-js's own, or null exactly where graphql-js would answer an error.
import {
  getArgumentValues,
  getVariableValues,
  Kind,
  parse,
  type FieldNode,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { argumentBindings, boundArguments } from '../../../../src/service/graphql/plain-arguments';
import { graphqlSchema } from '../../../../src/service/graphql/schema';
import { graphqlOperationOf } from '../../../../src/service/graphql/request';

const fieldDef = graphqlSchema.getQueryType()!.getFields().searchPositionStatistic!;

function partsOf(query: string): { operation: OperationDefinitionNode; field: FieldNode } {
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  const field = operation.selectionSet.selections[0] as FieldNode;
  expect(field.kind).toBe(Kind.FIELD);
  return { operation, field };
}

const bindingsOf = (query: string) => {
  const { operation, field } = partsOf(query);
  return argumentBindings(operation, field, fieldDef);
};

/** graphql-js's own coercion of the root field's arguments, or null on any error. */
function coerced(query: string, variables: Record<string, unknown>): Record<string, unknown> | null {
  const { operation, field } = partsOf(query);
  const values = getVariableValues(graphqlSchema, operation.variableDefinitions ?? [], variables);
  if ('errors' in values) return null;
  try {
    return getArgumentValues(fieldDef, field, values.coerced);
  } catch {
    return null;
  }
}

const search = (definitions: string, args: string) =>
  `query Q${definitions} { searchPositionStatistic${args} { meta { total } } }`;

const BOUND_TEXTS = [
  search('($index: String!, $body: SearchPayload!)', '(index: $index, body: $body)'),
  search('($index: String!, $body: SearchPayload)', '(index: $index, body: $body)'),
  search('($i: String!, $b: SearchPayload)', '(body: $b, index: $i)'),
  search('($index: String!)', '(index: $index)'),
];

const UNBOUND_TEXTS = [
  // An argument written inline.
  search('($body: SearchPayload!)', '(index: "local.position_statistics", body: $body)'),
  // A default value.
  search('($index: String!, $body: SearchPayload = {paging: {size: 2}})', '(index: $index, body: $body)'),
  search('($index: String! = "local.position_statistics")', '(index: $index)'),
  // A directive on a variable.
  search('($index: String! @deprecated, $body: SearchPayload!)', '(index: $index, body: $body)'),
];

const VARIABLE_CASES: Record<string, unknown>[] = [
  { index: 'local.position_statistics', body: { paging: { size: 3 } } },
  { index: 'local.position_statistics', body: null },
  { index: 'local.position_statistics', body: undefined },
  { index: 'local.position_statistics' },
  { index: 'local.position_statistics', body: 'not an object', extra: 1 },
  { index: 5, body: {} },
  { index: null, body: {} },
  { index: ['local.position_statistics'], body: {} },
  { body: {} },
  { i: 'local.position_statistics', b: { paging: { from: 1 } } },
  { i: 'local.position_statistics', b: null },
  { i: 7 },
  {},
];

describe('the plain search arguments bound from the variables', () => {
  it('binds plain variables of the arguments own types, and nothing else', () => {
    for (const text of BOUND_TEXTS) expect(bindingsOf(text), text).not.toBeNull();
    expect(bindingsOf(BOUND_TEXTS[2]!)).toEqual([
      { argument: 'body', variable: 'b', nonNull: false, string: false },
      { argument: 'index', variable: 'i', nonNull: true, string: true },
    ]);
    for (const text of UNBOUND_TEXTS) expect(bindingsOf(text), text).toBeNull();
  });

  it('gives graphql-js its own arguments, and null where graphql-js answers an error', () => {
    for (const text of BOUND_TEXTS) {
      const bindings = bindingsOf(text)!;
      for (const variables of VARIABLE_CASES) {
        const bound = boundArguments(bindings, { query: text, variables });
        const expected = coerced(text, variables);
        // Strict: an argument left out and one passed as null differ.
        expect(bound?.args ?? null, `${text} ${JSON.stringify(variables)}`).toStrictEqual(expected);
      }
    }
  });

  it("reuses the envelope's parse of variables.body, and only of it", () => {
    const [text, , renamed] = BOUND_TEXTS as [string, string, string];
    const body = { filter: { and: [{ field: 'pnl', gte: 1 }] }, paging: { size: 3 } };
    const operation = graphqlOperationOf({
      query: text,
      variables: { index: 'local.position_statistics', body },
    });
    expect(operation.contractVariables?.body).toEqual({ ...body, sorts: [], paging: { size: 3, from: 0 } });
    const bound = boundArguments(bindingsOf(text)!, operation);
    expect(bound?.args.body).toBe(body);
    expect(bound?.parsedBody).toBe(operation.contractVariables?.body);
    // `$b` is not the variable the envelope parsed as the body.
    const other = { ...operation, variables: { i: 'local.position_statistics', b: body } };
    expect(boundArguments(bindingsOf(renamed)!, other)?.parsedBody).toBeUndefined();
    // A body the contract refuses is not parsed: the resolver's check names the field.
    const refused = graphqlOperationOf({
      query: text,
      variables: { index: 'local.position_statistics', body: { paging: { size: 0 } } },
    });
    expect(refused.contractVariables).toBeUndefined();
    expect(boundArguments(bindingsOf(text)!, refused)?.parsedBody).toBeUndefined();
  });
});
