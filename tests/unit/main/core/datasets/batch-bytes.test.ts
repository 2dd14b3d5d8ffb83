// A search-after answer read from its bytes on the dataset worker (batch-bytes.ts): the cursor it
// tells before writing, the records it packs, and the errors of an answer that is not JSON or
// not the contract's shape; and the batch reader, the worker that runs it.
import { describe, expect, it } from 'vitest';
import { STATISTIC_NUMERIC_FIELDS } from '../../../../../src/shared/api/statistics';
import { BatchReaderHost, readBatchBytes } from '../../../../../src/main/core/datasets/batch-bytes';
import {
  COLUMN_INDEX,
  packedText,
  packedTexts,
  unpackRows,
} from '../../../../../src/main/core/datasets/fields';
import { CoreError } from '../../../../../src/main/core/errors';
import { ServiceRequestError, type HttpRequest } from '../../../../../src/main/core/client/http';
import { fakeSearchAfter } from '../../../../support/fake-search-after';
import { BatchReceiver } from '../../../../../src/main/core/datasets/batch-channel';
import { MessageChannel } from 'node:worker_threads';

const NOW = '2024-05-01T00:00:00.000Z';
const record = (i: number) => ({
  ...Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f) => [f, i])),
  id: `id${String(i).padStart(4, '0')}`,
  account: `0x${i.toString(16).padStart(40, '0')}`,
  type: 'D30',
  protocol: 'NOVA_ARB',
  realisedMaxDrawdown: null,
  lastTradeAt: NOW,
  statisticAt: NOW,
  createdAt: NOW,
  indexTokens: ['0xabc'],
});
const answer = (count: number, searchAfter: unknown[] | null) => ({
  data: Array.from({ length: count }, (_, i) => record(i)),
  meta: { total: 40, totalPages: 4, pitId: 'pit-1', searchAfter },
});
const bytesOf = (value: unknown): ArrayBuffer =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)).buffer as ArrayBuffer;

describe('readBatchBytes', () => {
  it('tells the cursor and packs the records of a full batch', () => {
    const { meta, ...records } = readBatchBytes(bytesOf(answer(10, ['id0009'])), 10);
    expect(meta).toEqual({ pitId: 'pit-1', after: ['id0009'], total: 40, count: 10, last: false });
    expect(packedTexts(records, 'id')).toEqual(Array.from({ length: 10 }, (_, i) => record(i).id));
    expect(packedTexts(records, 'account')).toEqual(Array.from({ length: 10 }, (_, i) => record(i).account));
    expect(records.numbers[COLUMN_INDEX.get('pnl') as number]).toBe(0);
    const [row] = unpackRows({
      rests: [packedText(records, 0, 'rest')],
      numbers: records.numbers,
      rankings: new Float64Array(13),
    });
    expect(row).toMatchObject({ id: 'id0000', pnl: 0, realisedMaxDrawdown: null, lastTradeAt: NOW });
  });

  it('calls a batch the last when it is short or has no cursor to go on from', () => {
    expect(readBatchBytes(bytesOf(answer(9, ['id0008'])), 10).meta.last).toBe(true);
    expect(readBatchBytes(bytesOf(answer(10, null)), 10).meta.last).toBe(true);
  });

  it('refuses text that is not JSON, naming the endpoint', () => {
    expect(() => readBatchBytes(bytesOf('<html>oops'), 10)).toThrow(
      /POST \/trial\/position\/statistic\/search-after with text that is not JSON/,
    );
  });

  it('refuses an answer of another shape, naming the field and the rule', () => {
    const bad = answer(2, ['id0001']);
    (bad.data[1] as Record<string, unknown>).pnl = 'lots';
    let error: unknown;
    try {
      readBatchBytes(bytesOf(bad), 10);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CoreError);
    expect((error as CoreError).code).toBe('INTERNAL');
    expect((error as CoreError).message).toMatch(
      /search-after with a shape Copydesk does not understand: data\[1\]\.pnl must be a number$/,
    );
  });
});

/** A reader's fetchRead of `answerText` served by a real HTTP endpoint. */
async function fetchRead(
  reader: BatchReaderHost,
  answerText: string | { status: number; text: string },
  key: number,
  batchSize = 10,
) {
  const fake = await fakeSearchAfter(() => answerText);
  try {
    let request: HttpRequest | undefined;
    await fake.source.searchAfterVia({ size: batchSize }, async (r) => (request = r));
    return (await reader.handle('fetchRead', { request: request as HttpRequest, batchSize, key })).value;
  } finally {
    await fake.close();
  }
}

describe('the batch reader', () => {
  it('fetches, and answers the packed batch and its meta when it has no channel, and nothing else', async () => {
    const reader = new BatchReaderHost();
    const value = await fetchRead(reader, JSON.stringify(answer(5, ['id0004'])), 1);
    expect(value.meta).toEqual({ pitId: 'pit-1', after: ['id0004'], total: 40, count: 5, last: true });
    expect('key' in value).toBe(false);
    expect(value).toMatchObject({ count: 5, ends: { length: 15 } });
    expect(() => reader.handle('list', { profileId: 'p' })).toThrow(/does not know the operation list/);
  });

  it('fails with the service’s own error, status and Retry-After kept, for the core to retry', async () => {
    const reader = new BatchReaderHost();
    const refused = fetchRead(
      reader,
      { status: 429, text: '{"code":"RATE_LIMITED","message":"slow down"}' },
      1,
    );
    await expect(refused).rejects.toSatisfy(
      (e: unknown) => e instanceof ServiceRequestError && e.status === 429 && /slow down/.test(e.message),
    );
  });

  it('sends batches over its channel once connected; the receiver takes each by its key, in any order', async () => {
    const reader = new BatchReaderHost();
    const receiver = new BatchReceiver();
    const { port1, port2 } = new MessageChannel();
    reader.handle('connect', { port: port1, from: 'asc' });
    receiver.connect('asc', port2);
    const first = await fetchRead(reader, JSON.stringify(answer(3, ['id0002'])), 7, 3);
    const second = await fetchRead(reader, JSON.stringify(answer(2, ['id0001'])), 8, 3);
    expect(first).toEqual({ key: 7, meta: expect.objectContaining({ count: 3 }) });
    expect(second).toMatchObject({ key: 8 });
    // The second end's batch is written first: the first waits aside until its write comes.
    expect(packedTexts(receiver.take({ key: 8 }), 'id')).toEqual(['id0000', 'id0001']);
    expect(packedTexts(receiver.take({ key: 7 }), 'id')).toEqual(['id0000', 'id0001', 'id0002']);
    expect(() => receiver.take({ key: 9 })).toThrow(
      /Batch 9 of the download never reached the dataset worker/,
    );
    reader.close();
    receiver.close();
  });
});
