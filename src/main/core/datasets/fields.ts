import {
  RANKING_KEYS,
  STATISTIC_NUMERIC_FIELDS,
  positionStatisticSchema,
  type RankingKey,
} from '../../../shared/api/statistics';
import type { LeaderboardPacked, PackedRecords } from './worker-messages';

/**
 * How a downloaded statistic record is stored (docs/core-cache.md, Downloaded datasets): its numbers as
 * columns of 64-bit floats, so filters and sorts run over typed arrays, and the rest of the record
 * (strings, lists, timestamps as written) as JSON. A null number is NaN in its column.
 */

/** Numbers of the record that live only in columns (they are left out of the JSON rest). */
export const RECORD_NUMBER_FIELDS = [...STATISTIC_NUMERIC_FIELDS, 'unrealisedPnl'] as const;

/** Fields that stay in the JSON rest but also get a column, so that they can be filtered. */
export const DERIVED_FIELDS = ['lastTradeAt', 'statisticAt', 'createdAt', 'isOpenPosition'] as const;

/** Every numeric column of a record, in the order of a chunk's row-major numbers. */
export const COLUMN_FIELDS = [...RECORD_NUMBER_FIELDS, ...DERIVED_FIELDS] as const;
export const COLUMN_COUNT = COLUMN_FIELDS.length;
export const COLUMN_INDEX: ReadonlyMap<string, number> = new Map(COLUMN_FIELDS.map((f, i) => [f, i]));

const RECORD_NUMBERS: ReadonlySet<string> = new Set(RECORD_NUMBER_FIELDS);

/** The other fields of a statistic record: they are kept as JSON. */
const REST_FIELDS = Object.keys(positionStatisticSchema.shape).filter((key) => !RECORD_NUMBERS.has(key));

/** Key of the JSON rest that lists the number fields the record did not have at all. */
export const ABSENT_KEY = '$absent';

/** The column name of a ranking key's percentiles. */
export const rankingColumn = (key: RankingKey): string => `ranking.${key}`;

/** How a filter value is coerced for a field (as the service does, src/service/store/conditions.ts). */
export type FieldKind = 'number' | 'time' | 'boolean' | 'string' | 'address' | 'constant';

/**
 * The kind of every field a leaderboard may filter or sort on. `type` and `protocol` are the same
 * for every record of a dataset (one protocol, one window), so they are constants.
 */
export function fieldKind(field: string): FieldKind {
  if (field === 'type' || field === 'protocol') return 'constant';
  if (field === 'id') return 'string';
  if (field === 'account') return 'address';
  if (field === 'isOpenPosition') return 'boolean';
  if (field === 'lastTradeAt' || field === 'statisticAt' || field === 'createdAt') return 'time';
  return 'number';
}

/** A record as the client parsed it. */
type RecordIn = Record<string, unknown>;

/**
 * Splits a record into its column values (written at `out[offset..offset+COLUMN_COUNT)`) and its
 * JSON rest. Absent numbers are listed in the rest so that the record comes back exactly as it came.
 */
export type SplitRecord = (record: RecordIn, out: Float64Array, offset: number) => string;

/**
 * splitRecord, written out field by field when this module loads. A bulk download splits a
 * thousand 53-field records a batch, and reading a field by a name held in a variable costs a
 * generic lookup each time (~20 ns, over half of the split); a property named in the code is a
 * direct load. The code is generated from the field lists above, so it cannot drift from them.
 */
function compileSplit(): SplitRecord {
  const key = (name: string) => JSON.stringify(name);
  const rests = REST_FIELDS.map(
    (name) =>
      `v = record[${key(name)}]; if (v !== undefined) rest += (rest === '' ? '{' : ',') + ${key(`${JSON.stringify(name)}:`)} + JSON.stringify(v);`,
  );
  const numbers = RECORD_NUMBER_FIELDS.map(
    (name, f) =>
      `v = record[${key(name)}]; if (v === undefined) (absent ??= []).push(${key(name)}); out[offset + ${f}] = typeof v === 'number' ? v : NaN;`,
  );
  // The times of a batch repeat (one statistics run wrote them): the last text parsed is kept.
  const times = (['lastTradeAt', 'statisticAt', 'createdAt'] as const).map((name, t) => {
    const f = RECORD_NUMBER_FIELDS.length + t;
    return `v = record[${key(name)}]; if (typeof v !== 'string') out[offset + ${f}] = NaN; else { if (v !== seen[${t}]) { seen[${t}] = v; parsed[${t}] = Date.parse(v); } out[offset + ${f}] = parsed[${t}]; }`;
  });
  const open = `v = record.isOpenPosition; out[offset + ${RECORD_NUMBER_FIELDS.length + 3}] = v === true ? 1 : v === false ? 0 : NaN;`;
  const body = [
    `let rest = ''; let absent = null; let v;`,
    ...rests,
    ...numbers,
    ...times,
    open,
    `if (absent) rest += (rest === '' ? '{' : ',') + ${key(`${JSON.stringify(ABSENT_KEY)}:`)} + JSON.stringify(absent);`,
    `return rest === '' ? '{}' : rest + '}';`,
  ].join('\n');
  const seen: (string | undefined)[] = [undefined, undefined, undefined];
  const parsed = [NaN, NaN, NaN];
  const make = new Function('seen', 'parsed', `return (record, out, offset) => {\n${body}\n};`) as (
    seen: (string | undefined)[],
    parsed: number[],
  ) => SplitRecord;
  return make(seen, parsed);
}

export const splitRecord: SplitRecord = compileSplit();

/** Splits a batch of records for the worker (see PackedRecords). */
export function packRecords(records: readonly RecordIn[]): PackedRecords {
  const numbers = new Float64Array(records.length * COLUMN_COUNT);
  const ends = new Uint32Array(records.length * 3);
  let text = '';
  records.forEach((record, i) => {
    text += record.id as string;
    ends[i * 3] = text.length;
    text += record.account as string;
    ends[i * 3 + 1] = text.length;
    text += splitRecord(record, numbers, i * COLUMN_COUNT);
    ends[i * 3 + 2] = text.length;
  });
  return { count: records.length, text, ends, numbers };
}

/** Record `i`'s id, account or JSON rest out of a packed batch. */
export function packedText(packed: PackedRecords, i: number, part: 'id' | 'account' | 'rest'): string {
  const k = i * 3 + (part === 'id' ? 0 : part === 'account' ? 1 : 2);
  return packed.text.slice(k === 0 ? 0 : (packed.ends[k - 1] as number), packed.ends[k] as number);
}

/** Every id (or account) of a packed batch. */
export const packedTexts = (packed: PackedRecords, part: 'id' | 'account'): string[] =>
  Array.from({ length: packed.count }, (_, i) => packedText(packed, i, part));

/** The record again, from its JSON rest and its numbers (`numbers[at..]`, as splitRecord wrote them). */
export function joinRecord(rest: string, numbers: Float64Array, at: number): Record<string, unknown> {
  const record = JSON.parse(rest) as Record<string, unknown>;
  const absent = record[ABSENT_KEY] as string[] | undefined;
  if (absent !== undefined) delete record[ABSENT_KEY];
  for (let f = 0; f < RECORD_NUMBER_FIELDS.length; f += 1) {
    const name = RECORD_NUMBER_FIELDS[f] as string;
    if (absent !== undefined && absent.includes(name)) continue;
    const value = numbers[at + f] as number;
    record[name] = value === value ? value : null;
  }
  return record;
}

/** The rows of a packed leaderboard answer: each record with its `ranking`. */
export function unpackRows(
  packed: Pick<LeaderboardPacked, 'rests' | 'numbers' | 'rankings'>,
): Record<string, unknown>[] {
  return packed.rests.map((rest, k) => {
    const record = joinRecord(rest, packed.numbers, k * COLUMN_COUNT);
    const ranking: Record<string, number> = {};
    for (let r = 0; r < RANKING_KEYS.length; r += 1)
      ranking[RANKING_KEYS[r] as string] = packed.rankings[k * RANKING_KEYS.length + r] as number;
    record.ranking = ranking;
    return record;
  });
}
