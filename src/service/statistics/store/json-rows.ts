import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS } from '../../../shared/api/statistics';

/**
 * An ISO 8601 UTC text with milliseconds of an epoch-ms column, computed by SQLite. `datetime`
 * with 'subsec' writes the same digits as strftime's `%Y-%m-%d %H:%M:%f` at a third of its cost
 * (it parses no format); strftime's four times were a tenth of a search-after batch's CPU.
 */
const isoSql = (column: string) =>
  `replace(datetime(${column} / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z'`;

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

/**
 * `pageJson` written straight into one Buffer, for answers of a megabyte and more (search-after
 * batches): joining 1,000 texts, wrapping the result and encoding it again on the socket copied
 * the page three times, and cost the service more CPU than the copy made here (docs/service.md).
 * A row may come as its UTF-8 bytes already (search-after reads them so): then it is only copied.
 */
export function pageJsonBuffer(rows: readonly (string | Uint8Array)[], meta: object): Buffer {
  const head = '{"data":[';
  const tail = `],"meta":${JSON.stringify(meta)}}`;
  let bytes = head.length + Buffer.byteLength(tail) + Math.max(rows.length - 1, 0);
  for (const row of rows) bytes += typeof row === 'string' ? Buffer.byteLength(row) : row.byteLength;
  const page = Buffer.allocUnsafe(bytes);
  let at = page.write(head, 0);
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0) page[at++] = COMMA;
    const row = rows[i]!;
    if (typeof row === 'string') at += page.write(row, at);
    else {
      page.set(row, at);
      at += row.byteLength;
    }
  }
  page.write(tail, at);
  return page;
}
const COMMA = 0x2c;

/** `{"data":[…],"meta":{…}}` from rows already rendered as JSON text. */
export const pageJson = (rows: readonly string[], meta: object): string =>
  `{"data":[${rows.join(',')}],"meta":${JSON.stringify(meta)}}`;
