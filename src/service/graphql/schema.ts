import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLNullableType,
  type GraphQLOutputType,
} from 'graphql';
import {
  GRAPHQL_QUERY_NAMES,
  UNCOMPUTED_STATISTIC_LABELS,
  type GraphqlQueryName,
} from '../../shared/api/graphql';
import { ORDER_WIRE_FIELDS } from '../../shared/api/order-fields';
import { POSITION_WIRE_FIELDS } from '../../shared/api/position-fields';
import { ORDER_TYPES } from '../../shared/api/positions';
import { POSITION_STATUSES, WINDOWS } from '../../shared/api/common';
import { STATISTIC_NUMERIC_FIELDS } from '../../shared/api/statistics';
import type { StoredField } from '../../shared/api/stored-fields';
import { resolveSearch, type GraphqlContext, type SearchArgs } from './resolvers';
import { SearchPayloadScalar } from './scalars';

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);
const listOf = <T extends GraphQLNullableType>(type: T) => new GraphQLList(nonNull(type));
const [ID, Str, Num, Int] = [
  nonNull(GraphQLID),
  nonNull(GraphQLString),
  nonNull(GraphQLFloat),
  nonNull(GraphQLInt),
];
const [optStr, optNum, optBool] = [GraphQLString, GraphQLFloat, GraphQLBoolean];

/** `{name: type}` → field configs resolved by property name (items are wire objects already). */
function fields(types: Record<string, GraphQLOutputType>): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  return Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { type }]));
}

const enumOf = (name: string, values: readonly string[]) =>
  new GraphQLEnumType({ name, values: Object.fromEntries(values.map((v) => [v, { value: v }])) });

const PositionStatus = enumOf('PositionStatus', POSITION_STATUSES);
const OrderType = enumOf('OrderType', ORDER_TYPES);
const StatisticWindow = enumOf('StatisticWindow', WINDOWS);

/** A stored field's GraphQL type: its scalar, non-null unless the contract lets it be null. */
function storedFieldType(field: StoredField): GraphQLOutputType {
  const type =
    field.type === 'list'
      ? listOf(GraphQLString)
      : field.type === 'number'
        ? GraphQLFloat
        : field.type === 'boolean'
          ? GraphQLBoolean
          : GraphQLString;
  return field.nullable ? type : nonNull(type);
}

/** `{name: type}` of a shared field definition, in its order. */
const storedFieldTypes = (defs: Readonly<Record<string, StoredField>>): Record<string, GraphQLOutputType> =>
  Object.fromEntries(Object.entries(defs).map(([name, field]) => [name, storedFieldType(field)]));

const Position = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'Position',
  description: 'A trader position: the REST resource plus the GraphQL extras (many null locally).',
  // These keep their places; only their types are narrower than the stored number or text.
  fields: fields({
    ...storedFieldTypes(POSITION_WIRE_FIELDS),
    id: ID,
    orderCount: Int,
    orderIncreaseCount: Int,
    orderDecreaseCount: Int,
    status: nonNull(PositionStatus),
  }),
});

const Order = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'Order',
  description: "A trader's order.",
  // The id and the type keep their places; only their types are narrower than the stored text.
  fields: fields({ ...storedFieldTypes(ORDER_WIRE_FIELDS), id: ID, type: nonNull(OrderType) }),
});

/** Statistic numbers the contract allows to be null (min/max of nothing, drawdowns, risk ratios). */
export const NULLABLE_STATISTICS: ReadonlySet<string> = new Set([
  'realisedMaxDrawdown',
  'realisedMaxDrawdownPnl',
  'maxDrawdown',
  'maxDrawdownPnl',
  'minDuration',
  'maxDuration',
  'minLeverage',
  'maxLeverage',
  'sharpeRatio',
  'realisedSharpeRatio',
  'sortinoRatio',
  'realisedSortinoRatio',
]);

/** Label lists the engine does not compute: selectable, always null (docs/graphql.md). */
function uncomputedLabels(): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  return Object.fromEntries(
    UNCOMPUTED_STATISTIC_LABELS.map((name) => [
      name,
      {
        type: listOf(GraphQLString),
        description: 'Not computed by the local service: always null.',
        resolve: () => null,
      },
    ]),
  );
}

const PositionStatistic = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'PositionStatistic',
  description: 'One current statistic record per trader, protocol and window.',
  fields: () => ({
    ...fields({
      id: ID,
      account: Str,
      type: nonNull(StatisticWindow),
      protocol: Str,
      ...Object.fromEntries(
        STATISTIC_NUMERIC_FIELDS.map((f) => [f, NULLABLE_STATISTICS.has(f) ? optNum : Num]),
      ),
      lastTradeAt: Str,
      statisticAt: Str,
      createdAt: Str,
      updatedAt: optStr,
      indexTokens: nonNull(listOf(GraphQLString)),
      pairs: listOf(GraphQLString),
      isOpenPosition: optBool,
      unrealisedPnl: optNum,
    }),
    ...uncomputedLabels(),
  }),
});

const PageMeta = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'PageMeta',
  description: 'limit = paging.size, offset = paging.from, totalPages = ceil(total / limit).',
  fields: fields({ total: Int, limit: Int, offset: Int, totalPages: Int }),
});

const pageOf = (item: GraphQLObjectType) =>
  new GraphQLObjectType<unknown, GraphqlContext>({
    name: `${item.name}Page`,
    fields: fields({ data: nonNull(listOf(item)), meta: nonNull(PageMeta) }),
  });

const ITEM_PAGE: Readonly<Record<GraphqlQueryName, GraphQLObjectType>> = (() => {
  const [positions, orders, statistics] = [pageOf(Position), pageOf(Order), pageOf(PositionStatistic)];
  return {
    searchTopOpeningPosition: positions,
    livePosition: positions,
    searchOrders: orders,
    searchPositionStatistic: statistics,
  };
})();

const QUERY_DESCRIPTIONS: Readonly<Record<GraphqlQueryName, string>> = {
  searchTopOpeningPosition: 'OPEN positions matching the filter, of `protocols` (all when empty).',
  livePosition: 'Positions, open or closed, matching the filter, of `protocols` (all when empty).',
  searchOrders: 'Orders matching the filter.',
  searchPositionStatistic: 'Current statistic records matching the filter.',
};

/** A search field; the page is nullable so that one failing search leaves the others' data. */
function searchField(query: GraphqlQueryName): GraphQLFieldConfig<unknown, GraphqlContext, SearchArgs> {
  const withProtocols = query === 'searchTopOpeningPosition' || query === 'livePosition';
  return {
    type: ITEM_PAGE[query],
    description: QUERY_DESCRIPTIONS[query],
    args: {
      index: { type: Str, description: '`<namespace>.<kind>`, e.g. local.positions.' },
      ...(withProtocols && { protocols: { type: new GraphQLList(Str) } }),
      body: { type: SearchPayloadScalar },
    },
    resolve: (_root, args, context) => resolveSearch(query, args, context),
  };
}

/**
 * The home page of the API's web client lists traders with `homePositionStatistic`, which the
 * spec does not name: the same search as searchPositionStatistic, under its name (docs/graphql.md).
 */
const homePositionStatistic = (): GraphQLFieldConfig<unknown, GraphqlContext, SearchArgs> => ({
  ...searchField('searchPositionStatistic'),
  description: 'The same search as searchPositionStatistic, under the name a real web client uses.',
});

/** The schema of `POST /graphql`: the four searches of docs/api.md, and one alias. */
export const graphqlSchema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, GraphqlContext>({
    name: 'Query',
    fields: () => ({
      ...Object.fromEntries(GRAPHQL_QUERY_NAMES.map((name) => [name, searchField(name)])),
      homePositionStatistic: homePositionStatistic(),
    }),
  }),
});
