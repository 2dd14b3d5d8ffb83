import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS } from '../../shared/api/statistics';

/** An ISO 8601 UTC text with milliseconds of an epoch-ms column, computed by SQLite. */
const isoSql = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;

const RECORD_FIELDS = [
  `'id', id`,
  `'account', account`,
  `'type', type`,
  `'protocol', protocol`,
  ...STATISTIC_NUMERIC_FIELDS.map((f) => `'${f}', "${f}"`),
  `'unrealisedPnl', "unrealisedPnl"`,
  `'indexTokens', json(index_tokens)`,
  `'pairs', json(pairs)`,
  `'isOpenPosition', json(CASE is_open_position WHEN 1 THEN 'true' ELSE 'false' END)`,
  `'lastTradeAt', ${isoSql('last_trade_at_ms')}`,
  `'statisticAt', ${isoSql('statistic_at_ms')}`,
  `'createdAt', ${isoSql('created_at_ms')}`,
  `'updatedAt', ${isoSql('updated_at_ms')}`,
];

const RANKING_OBJECT = `json_object(${RANKING_KEYS.map((k) => `'${k}', "rk_${k}"`).join(', ')})`;

/**
 * SQL that renders a statistic row as the API's JSON text. Letting SQLite write the JSON skips
 * building a 70-property object per row in JavaScript and serialising it again; numbers keep
 * round-trip precision. It must stay equal to `statisticToWire` (a test checks both).
 */
export function statisticJsonSql(withRanking: boolean): string {
  return `json_object(${[...RECORD_FIELDS, ...(withRanking ? [`'ranking', ${RANKING_OBJECT}`] : [])].join(', ')})`;
}

/** `{"data":[…],"meta":{…}}` from rows already rendered as JSON text. */
export const pageJson = (rows: readonly string[], meta: object): string =>
  `{"data":[${rows.join(',')}],"meta":${JSON.stringify(meta)}}`;
