// The two fill parsers: what they read, and the line and reason of every row they refuse.
import { describe, expect, it } from 'vitest';
import { FileError, accountInFileName, timeField } from '../../../../../src/service/market/importers/fields';
import { csvRecords, parseFillsCsv } from '../../../../../src/service/market/importers/fills-csv';
import {
  arrayElementLines,
  isLiquidationOf,
  parseFillsJson,
} from '../../../../../src/service/market/importers/fills-json';

const A = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const B = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('csvRecords', () => {
  it('reads quoted commas, doubled quotes and newlines, and numbers records by their first line', () => {
    const text = '\uFEFFa,b,c\r\n1,"x, y","say ""hi"""\r\n\r\n2,"two\nlines",z\n3,,\n';
    expect(csvRecords(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x, y', 'say "hi"'] },
      { line: 4, fields: ['2', 'two\nlines', 'z'] },
      { line: 6, fields: ['3', '', ''] },
    ]);
  });

  it('reports a quote that never closes at the line where its record starts', () => {
    expect(csvRecords('a,b\n1,"open\n2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: [], error: 'a quoted field is never closed' },
    ]);
  });
});

describe('parseFillsCsv', () => {
  const header = 'time,user,coin,side,px,sz,fee,closedPnl,liquidation';

  it('reads every side spelling, both time forms, and the optional columns', () => {
    const rows = [
      `2024-06-01T00:00:00Z,${A.toLowerCase()},BTC,B,60000,0.01,0.1,,`,
      `1717200000000,${A},BTC,Ask,60000.5,0.01,,5.5,TRUE`,
      `2024-06-01 02:00,${A},kPEPE,buy,0.00001,1000000,0,,0`,
      `2024-06-01T03:00:00+02:00,${A},ETH,SELL,3000,1.50,,,false`,
    ];
    const { fills, rejected } = parseFillsCsv([header, ...rows].join('\n'), null);
    expect(rejected).toEqual([]);
    expect(fills.map((f) => [f.line, f.account, f.coin, f.isBuy, f.price, f.sizeTokens])).toEqual([
      [2, A, 'BTC', true, 60000, '0.01'],
      [3, A, 'BTC', false, 60000.5, '0.01'],
      [4, A, 'kPEPE', true, 0.00001, '1000000'],
      [5, A, 'ETH', false, 3000, '1.5'],
    ]);
    expect(fills.map((f) => f.timeMs)).toEqual([
      Date.UTC(2024, 5, 1, 0),
      Date.UTC(2024, 5, 1, 0),
      Date.UTC(2024, 5, 1, 2), // no zone: UTC
      Date.UTC(2024, 5, 1, 1), // 03:00 at +02:00
    ]);
    expect(fills.map((f) => [f.fee, f.closedPnl, f.isLiquidation])).toEqual([
      [0.1, null, false],
      [0, 5.5, true],
      [0, null, false],
      [0, null, false],
    ]);
  });

  it('rejects each bad row with its line, field and rule, and reads the others', () => {
    const rows = [
      `2024-06-01T00:00:00Z,${A},BTC,hold,1,1,,,`,
      `2024-02-30T00:00:00Z,${A},BTC,B,1,1,,,`,
      `1717200000,${A},BTC,B,1,1,,,`,
      `2024-06-01T00:00:00Z,0x1234,BTC,B,1,1,,,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,-5,1,,,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,0.0000000000000000001,,,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,0,,,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,1,"1,5",,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,1,,,maybe`,
      `2024-06-01T00:00:00Z,${A},PURR/USDC,B,5,1,,,`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,1`,
      `2024-06-01T00:00:00Z,${A},BTC,B,5,1,,,`,
    ];
    const { fills, rejected } = parseFillsCsv([header, ...rows].join('\n'), null);
    expect(fills.map((f) => f.line)).toEqual([13]);
    expect(rejected).toEqual([
      { line: 2, reason: "side: 'hold' is not one of B/A, Bid/Ask, buy/sell" },
      { line: 3, reason: "time: '2024-02-30T00:00:00Z' is neither ISO 8601 nor epoch ms" },
      { line: 4, reason: "time: '1717200000' is not epoch milliseconds (seconds? multiply by 1000)" },
      { line: 5, reason: "user: '0x1234' is not an address (0x and 40 hex digits)" },
      { line: 6, reason: "px: '-5' must be greater than 0" },
      { line: 7, reason: "sz: '0.0000000000000000001' has more than 18 decimals" },
      { line: 8, reason: "sz: '0' must be greater than 0" },
      { line: 9, reason: "fee: '1,5' is not a decimal number" },
      { line: 10, reason: "liquidation: 'maybe' is not one of true, false, 1, 0 or empty" },
      { line: 11, reason: "coin: 'PURR/USDC' is a spot market; only perpetual fills make positions" },
      { line: 12, reason: 'row: has 6 fields, the header has 9' },
    ]);
  });

  it('names every broken field of a row at once', () => {
    const { rejected } = parseFillsCsv(`${header}\nlater,${A},BTC,sell,free,-1,,,\n`, null);
    expect(rejected).toEqual([
      {
        line: 2,
        reason:
          "time: 'later' is neither ISO 8601 nor epoch ms; px: 'free' is not a decimal number; sz: '-1' must be greater than 0",
      },
    ]);
  });

  it('takes the default account for empty cells and files without the column', () => {
    const withColumn = parseFillsCsv(`account,time,coin,side,px,sz\n,1717200000000,BTC,B,1,1\n`, B);
    expect(withColumn.fills[0]?.account).toBe(B);
    const noDefault = parseFillsCsv(`account,time,coin,side,px,sz\n,1717200000000,BTC,B,1,1\n`, null);
    expect(noDefault.rejected).toEqual([{ line: 2, reason: 'account: is empty and no --account was given' }]);
    const noColumn = parseFillsCsv(`time,coin,side,px,sz\n1717200000000,BTC,A,1,1\n`, B);
    expect(noColumn.fills[0]).toMatchObject({ account: B, isBuy: false });
  });

  it('refuses a file it cannot read at all, and warns about columns it ignores', () => {
    expect(() => parseFillsCsv('', A)).toThrow(FileError);
    expect(() => parseFillsCsv('time,coin,side\n1,BTC,B\n', A)).toThrow('the header lacks columns px, sz');
    expect(() => parseFillsCsv('time,coin,side,px,sz\n', null)).toThrow(/pass --account/);
    expect(() => parseFillsCsv('time,user,account,coin,side,px,sz\n', null)).toThrow(/both user and account/);
    const { warnings } = parseFillsCsv('Time,Coin,Side,Px,Sz,Venue\n', A);
    expect(warnings).toEqual([{ line: 1, reason: "column 'Venue' ignored" }]);
  });
});

describe('parseFillsJson', () => {
  const fill = (over: Record<string, unknown>) => ({
    coin: 'BTC',
    px: '60000.0',
    sz: '0.01',
    side: 'B',
    time: 1717200000000,
    startPosition: '0.0',
    dir: 'Open Long',
    closedPnl: '0.0',
    hash: '0xabc',
    oid: 1,
    crossed: true,
    fee: '0.12',
    tid: 7,
    ...over,
  });

  it('reads the venue answer, newest first, in time order with each fill at its line', () => {
    const text = JSON.stringify(
      [fill({ time: 1717200000002, tid: 9 }), fill({ time: 1717200000001, tid: 8 })],
      null,
      2,
    );
    const { fills, rejected } = parseFillsJson(text, A);
    expect(rejected).toEqual([]);
    expect(fills.map((f) => [f.tid, f.timeMs, f.line])).toEqual([
      ['8', 1717200000001, 17],
      ['9', 1717200000002, 2],
    ]);
    expect(fills[0]).toMatchObject({
      account: A,
      price: 60000,
      sizeTokens: '0.01',
      fee: 0.12,
      txHash: '0xabc',
    });
    expect(fills[0]).toMatchObject({ closedPnl: 0, startPosition: '0.0', isLiquidation: false });
  });

  it('keeps the file order inside a millisecond, whichever way the file runs (the execution order)', () => {
    const t = 1717200000000;
    const newestFirst = [
      fill({ time: t + 2, tid: 9 }),
      fill({ time: t + 1, tid: 7 }),
      fill({ time: t + 1, tid: 8, side: 'A', dir: 'Close Long' }),
      fill({ time: t, tid: 6 }),
    ];
    const read = (fills: unknown[]) => parseFillsJson(JSON.stringify(fills), A).fills.map((f) => f.tid);
    expect(read(newestFirst)).toEqual(['6', '7', '8', '9']);
    const oldestFirst = [newestFirst[3], newestFirst[1], newestFirst[2], newestFirst[0]];
    expect(read(oldestFirst)).toEqual(['6', '7', '8', '9']);
  });

  it('names the element and its line for a bad fill', () => {
    const text = `[${JSON.stringify(fill({}))},\n${JSON.stringify(fill({ px: 'abc' }))},\n7]`;
    expect(parseFillsJson(text, A).rejected).toEqual([
      { line: 2, reason: "fill #2: px: 'abc' is not a decimal number" },
      { line: 3, reason: 'fill #3: fill: is not an object' },
    ]);
    expect(parseFillsJson(`[${JSON.stringify(fill({ dir: 'Sell', coin: 'HYPE' }))}]`, A).rejected).toEqual([
      { line: 1, reason: "fill #1: dir: 'Sell' is a spot fill; only perpetual fills make positions" },
    ]);
  });

  it('counts a liquidation only when it is this account’s', () => {
    const mine = { liquidatedUser: A.toLowerCase(), markPx: '1', method: 'market' };
    const theirs = { liquidatedUser: B.toLowerCase(), markPx: '1', method: 'market' };
    expect(isLiquidationOf(fill({ liquidation: mine, dir: 'Close Long' }), A)).toBe(true);
    expect(isLiquidationOf(fill({ liquidation: theirs, dir: 'Open Short' }), A)).toBe(false);
    expect(isLiquidationOf(fill({ liquidation: theirs, dir: 'Liquidated Cross Long' }), A)).toBe(false);
    expect(isLiquidationOf(fill({ dir: 'Liquidated Isolated Short' }), A)).toBe(true);
    expect(isLiquidationOf(fill({ liquidation: {} }), A)).toBe(true);
    expect(isLiquidationOf(fill({ dir: 'Close Long' }), A)).toBe(false);
  });

  it('refuses text that is not a JSON array', () => {
    expect(() => parseFillsJson('{"fills": []}', A)).toThrow(FileError);
    expect(() => parseFillsJson('[{"coin": ', A)).toThrow(/not JSON/);
  });

  it('finds element lines past strings holding brackets and escaped quotes', () => {
    expect(arrayElementLines('[\n "a]\\"[",\n {"b": [1,\n 2]},\n\n 3\n]')).toEqual([2, 3, 6]);
  });
});

describe('field helpers', () => {
  it('finds the account in a file name', () => {
    expect(accountInFileName(`fills-${A.toLowerCase()}.json`)).toBe(A);
    expect(accountInFileName('fills.json')).toBeNull();
  });

  it('reads fractional seconds and compact offsets', () => {
    expect(timeField('time', '2024-06-01T00:00:00.250Z')).toBe(Date.UTC(2024, 5, 1) + 250);
    expect(timeField('time', '2024-06-01T02:00:00+0200')).toBe(Date.UTC(2024, 5, 1));
    expect(timeField('time', '2024-06-01')).toBe(Date.UTC(2024, 5, 1));
  });
});
