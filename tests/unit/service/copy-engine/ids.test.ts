// The engine's ids: derived from what caused them, UUIDv7-shaped with the time first, and distinct
// between the rows of one fill (docs/copy-engine.md, Times and identifiers).
import { describe, expect, it } from 'vitest';
import { engineId, engineTxHash, fillIds } from '../../../../src/service/copy-engine/ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/;
const AT_MS = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
const timeOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('fillIds', () => {
  it('gives a fill its order id, log id, position id and transaction hash from its label', () => {
    const ids = fillIds('order-1|trade-1|open', AT_MS);
    for (const id of [ids.orderId, ids.logId, ids.positionId]) {
      expect(id).toMatch(UUID_V7);
      expect(timeOf(id)).toBe(AT_MS);
    }
    expect(ids.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Set([ids.orderId, ids.logId, ids.positionId]).size).toBe(3);
  });

  it('derives the same ids from the same cause, and other ids from another', () => {
    expect(fillIds('order-1|p-1', AT_MS)).toEqual(fillIds('order-1|p-1', AT_MS));
    const other = fillIds('order-2|p-1', AT_MS);
    const ids = fillIds('order-1|p-1', AT_MS);
    expect(other.orderId).not.toBe(ids.orderId);
    expect(other.logId).not.toBe(ids.logId);
    expect(other.txHash).not.toBe(ids.txHash);
  });

  it('sorts ids of later fills after earlier ones', () => {
    const earlier = fillIds('z', AT_MS);
    const later = fillIds('a', AT_MS + 1);
    expect(later.orderId > earlier.orderId).toBe(true);
    expect(later.logId > earlier.logId).toBe(true);
  });

  it('keeps the single ids (failed logs, position keys) apart from the fill ids', () => {
    const ids = fillIds('order-1|p-1', AT_MS);
    expect(engineId('log:order-1|p-1', AT_MS)).toMatch(UUID_V7);
    expect(engineId('log:order-1|p-1', AT_MS)).not.toBe(ids.logId);
    expect(engineTxHash('key:order-1|p-1')).not.toBe(ids.txHash);
  });
});
