// The one dedupe key of a fill (src/service/positions/fill-keys.ts), and that the venue feed's page
// reader and the importer's JSON reader give the same fills the same keys.
import { describe, expect, it } from 'vitest';
import { fillKey, fillKeyer, type KeyedFill } from '../../../../src/service/positions/fill-keys';
import { parseFillsJson } from '../../../../src/service/market/importers/fills-json';
import { readFillsPage } from '../../../../src/service/venues/hyperliquid/venue-fills';

const ACCOUNT = '0x7a8b9C0d1e2f3a4B5C6d7E8F9A0B1c2d3e4F5a6b';
const HASH = '0x' + 'ab'.repeat(32);
const base: KeyedFill = {
  account: ACCOUNT,
  coin: 'BTC',
  timeMs: 1_700_000_000_000,
  isBuy: true,
  price: 60_123.5,
  sizeTokens: '0.01',
  txHash: HASH,
  tid: null,
};

describe('fillKey', () => {
  it('a trade id with the side: both sides of a self-trade are two keys', () => {
    expect(fillKey('HYPERLIQUID', { ...base, tid: 101 })).toBe(`tid:HYPERLIQUID:${ACCOUNT}:101:B`);
    expect(fillKey('HYPERLIQUID', { ...base, tid: '0101', isBuy: false })).toBe(
      `tid:HYPERLIQUID:${ACCOUNT}:101:A`,
    );
  });

  it('without a trade id: coin, time, side, price, size and hash (any case), then the occurrence', () => {
    const key = `fill:HYPERLIQUID:${ACCOUNT}:BTC:1700000000000:B:60123.5:0.01:${HASH}#1`;
    expect(fillKey('HYPERLIQUID', base)).toBe(key);
    expect(fillKey('HYPERLIQUID', { ...base, txHash: HASH.toUpperCase().replace('0X', '0x') })).toBe(key);
    expect(fillKey('HYPERLIQUID', { ...base, txHash: null }, 2)).toBe(key.replace(`${HASH}#1`, '-#2'));
  });

  it('numbers identical fills of one answer by occurrence; another answer starts again', () => {
    const keyOf = fillKeyer('HYPERLIQUID');
    const keys = [base, { ...base, isBuy: false }, base, { ...base, tid: 5 }, base].map(keyOf);
    const buy = fillKey('HYPERLIQUID', base).slice(0, -1);
    const sell = fillKey('HYPERLIQUID', { ...base, isBuy: false }).slice(0, -1);
    expect(keys).toEqual([`${buy}1`, `${sell}1`, `${buy}2`, `tid:HYPERLIQUID:${ACCOUNT}:5:B`, `${buy}3`]);
    expect(fillKeyer('HYPERLIQUID')(base)).toBe(keys[0]);
  });
});

describe('the feed and the importer key a fill alike', () => {
  const venueFills = [
    // Two makers at one price and size for one order (one hash, one oid): two fills, one identity.
    { coin: 'SUI', px: '1.32810', sz: '89.70', side: 'B', time: 1683245556598, oid: 7, hash: HASH },
    { coin: 'SUI', px: '1.3281', sz: '89.7', side: 'B', time: 1683245556598, oid: 7, hash: HASH },
    { coin: 'SUI', px: '1.3281', sz: '89.7', side: 'A', time: 1683245556598, oid: 8, hash: HASH },
    { coin: 'BTC', px: '30000.0', sz: '0.5', side: 'B', time: 1683245556700, oid: 9, hash: HASH, tid: 77 },
  ].map((f) => ({
    ...f,
    startPosition: '0.0',
    dir: f.side === 'B' ? 'Open Long' : 'Open Short',
    closedPnl: '0.0',
    fee: '0.0',
    crossed: true,
  }));

  it('gives the same keys, all different', () => {
    const fed = readFillsPage(venueFills, 'HYPERLIQUID', ACCOUNT.toLowerCase()).map((f) => f.key);
    const imported = parseFillsJson(JSON.stringify(venueFills), ACCOUNT).fills;
    const keyOf = fillKeyer('HYPERLIQUID');
    expect(imported.map(keyOf).sort()).toEqual([...fed].sort());
    expect(new Set(fed).size).toBe(4);
  });
});
