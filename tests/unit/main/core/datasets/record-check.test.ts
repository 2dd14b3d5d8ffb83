// The fast check of downloaded statistic records (record-check.ts) and the generated split
// (fields.ts): the check's verdict is the contract schema's on any record, the rules it probes
// are refused when it cannot express them, and a split record comes back exactly as it came.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zCount, zNumber } from '../../../../../src/shared/api/common';
import { positionStatisticSchema } from '../../../../../src/shared/api/statistics';
import {
  COLUMN_COUNT,
  COLUMN_INDEX,
  RECORD_NUMBER_FIELDS,
  joinRecord,
  splitRecord,
} from '../../../../../src/main/core/datasets/fields';
import {
  NUMBER_RULES,
  probeNumberRule,
  recordsFit,
} from '../../../../../src/main/core/datasets/record-check';

const T1 = '2024-05-01T00:00:00.000Z';
const T2 = '2024-05-02T12:30:00.250Z';

/** A valid record: every number i, the nullable ones null when i is odd. */
function validRecord(i: number): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: `id${i}`,
    account: `0x${i.toString(16).padStart(40, '0')}`,
    type: 'D30',
    protocol: 'NOVA_ARB',
    lastTradeAt: T1,
    statisticAt: T1,
    createdAt: T1,
    indexTokens: ['0xabc'],
  };
  for (const rule of NUMBER_RULES) record[rule.name] = rule.nullable && i % 2 === 1 ? null : i;
  return record;
}

/** Values a field might wrongly or rightly hold. */
const anyValue = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    -1,
    0,
    0.5,
    2 ** 53,
    -1e-9,
    null,
    undefined,
    true,
    '',
    '1',
    'x',
    T2,
    '2024-05-01',
    'D7',
    [],
  ),
  fc.string(),
  fc.array(fc.string(), { maxLength: 2 }),
);

const FIELDS = Object.keys(positionStatisticSchema.shape);

describe('recordsFit', () => {
  it('gives the schema’s verdict on records with any field changed to any value', () => {
    fc.assert(
      fc.property(
        fc.nat(1000),
        fc.array(fc.tuple(fc.constantFrom(...FIELDS, 'extra'), anyValue), { maxLength: 3 }),
        (i, changes) => {
          const record = validRecord(i);
          for (const [field, value] of changes) {
            if (value === undefined) delete record[field];
            else record[field] = value;
          }
          expect(recordsFit([record])).toBe(positionStatisticSchema.safeParse(record).success);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses what is not a list of objects, and a batch with one bad record among good ones', () => {
    expect(recordsFit({})).toBe(false);
    expect(recordsFit([validRecord(1), null])).toBe(false);
    expect(recordsFit([validRecord(1), [validRecord(2)]])).toBe(false);
    const bad = { ...validRecord(3), totalTrade: 2.5 };
    expect(recordsFit([validRecord(1), validRecord(2), bad])).toBe(false);
    expect(recordsFit([validRecord(1), validRecord(2)])).toBe(true);
  });

  it('checks a repeated timestamp text again when another field differs', () => {
    // The check remembers texts found valid in a batch; a bad text must never be remembered.
    const second = { ...validRecord(2), statisticAt: 'yesterday' };
    expect(recordsFit([validRecord(1), second])).toBe(false);
  });
});

describe('probeNumberRule', () => {
  it('reads counts, numbers, nullable and optional numbers off their schemas', () => {
    expect(probeNumberRule('a', zCount())).toMatchObject({ integer: true, nonNegative: true });
    expect(probeNumberRule('b', zNumber().nullable().optional())).toMatchObject({
      integer: false,
      nonNegative: false,
      nullable: true,
      optional: true,
    });
  });

  it('refuses a rule it cannot express, so the fast check never disagrees with the schema', () => {
    expect(() => probeNumberRule('capped', zNumber().max(100))).toThrow(/cannot express.*capped/);
    expect(() => probeNumberRule('positive', zNumber().positive())).toThrow(/cannot express/);
    expect(() => probeNumberRule('text', z.string())).toThrow(/cannot express/);
  });
});

describe('splitRecord (generated)', () => {
  it('gives a record back exactly, numbers in their columns, absent numbers still absent', () => {
    const record = validRecord(7);
    delete record.maxDrawdown;
    record.isOpenPosition = true;
    record.pairs = ['ETH-USDT'];
    const out = new Float64Array(COLUMN_COUNT * 2);
    const rest = splitRecord(record, out, COLUMN_COUNT);
    expect(out[COLUMN_COUNT + (COLUMN_INDEX.get('pnl') as number)]).toBe(7);
    expect(out[COLUMN_COUNT + (COLUMN_INDEX.get('isOpenPosition') as number)]).toBe(1);
    expect(out[COLUMN_COUNT + (COLUMN_INDEX.get('statisticAt') as number)]).toBe(Date.parse(T1));
    expect(joinRecord(rest, out, COLUMN_COUNT)).toEqual(record);
    expect(
      RECORD_NUMBER_FIELDS.every((f) => f in joinRecord(rest, out, COLUMN_COUNT) || f === 'maxDrawdown'),
    ).toBe(true);
  });

  it('parses each record’s own times when they change from one record to the next', () => {
    const out = new Float64Array(COLUMN_COUNT);
    const at = COLUMN_INDEX.get('lastTradeAt') as number;
    for (const time of [T1, T2, T1, 'not a time']) {
      splitRecord({ ...validRecord(1), lastTradeAt: time }, out, 0);
      expect(out[at]).toEqual(Date.parse(time));
    }
    splitRecord({ ...validRecord(1), lastTradeAt: undefined }, out, 0);
    expect(out[at]).toBeNaN();
  });
});
