// How a resource's wire fields are stored: the one definition the local service derives its
// row-to-wire mapping, its filter and sort columns and its GraphQL field types from, so that a
// field is added in one place (docs/api.md, Pagination and filters).

/** What a filterable stored value is, which decides how a filter value is coerced to it. */
export type FilterableFieldType = 'string' | 'address' | 'number' | 'boolean' | 'time';
/** What a stored value is, which decides how it goes on the wire; a `list` is never filtered. */
export type StoredFieldType = FilterableFieldType | 'list';

/**
 * One wire field of a resource and where its value comes from. `Column` keeps the column's name
 * as a literal, so the service can require it to be a column of its row type.
 */
export interface StoredField<Column extends string | null = string | null> {
  /** The column it reads; null for a field the local service never knows, which is always null. */
  column: Column;
  /**
   * `string`/`number` go out as stored, `time` (epoch ms) as ISO text, `boolean` (0/1) as a
   * boolean, `list` (JSON text) as an array of text; `address` is text whose 0x form is stored
   * checksummed, so filters normalise it first.
   */
  type: StoredFieldType;
  /** The contract lets it be null (the zod schema accepts null; GraphQL types it nullable). */
  nullable: boolean;
  /** Whether a filter or sort may name it. */
  filterable: boolean;
  /** A boolean that is true when the column holds this value (e.g. isOpen: type is OPEN). */
  equals?: string;
  /** Sent by GraphQL only: the REST resource leaves it out (docs/graphql.md). */
  graphqlOnly?: boolean;
}

/** A field stored in `column`, filterable unless said otherwise. */
export const storedField = <Column extends string>(
  column: Column,
  type: StoredFieldType,
  nullable: boolean,
  filterable = true,
): StoredField<Column> => ({ column, type, nullable, filterable });

/** A value the local world never has (the venue does not report it): always null, not filterable. */
export const unknownValue = (type: StoredFieldType = 'number'): StoredField<null> => ({
  column: null,
  type,
  nullable: true,
  filterable: false,
});
export const UNKNOWN_NUMBER = unknownValue();

/** The same field, sent by GraphQL only. */
export const graphqlOnly = <Column extends string | null>(
  field: StoredField<Column>,
): StoredField<Column> => ({
  ...field,
  graphqlOnly: true,
});
