import { describe, expect, it } from 'vitest';
import { COPY_TRADE_DEFAULTS, copyTradeCreateSchema, type CopyTrade } from '@shared/api/copy-trades';
import {
  copyTradeFormIssues,
  copyTradeToForm,
  emptyCopyTradeForm,
  formToCreateBody,
  formToUpdateChanges,
  humanizeRule,
  parseAmount,
  splitAddresses,
  type CopyTradeFormValues,
} from '@renderer/copy-trades/copy-trade-form';

const TRADER = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

/** A form a user could send: the minimum filled in. */
const valid = (patch: Partial<CopyTradeFormValues> = {}): CopyTradeFormValues =>
  emptyCopyTradeForm({
    title: 'Follow the whale',
    account: TRADER,
    protocol: 'NOVA_ARB',
    copyWalletId: 'wallet-1',
    exchange: 'PERPX',
    volume: '100',
    leverage: '10',
    ...patch,
  });

describe('the copy-trade form', () => {
  it('starts from the contract defaults', () => {
    const form = emptyCopyTradeForm();
    for (const [key, value] of Object.entries(COPY_TRADE_DEFAULTS)) {
      expect(form[key as keyof CopyTradeFormValues]).toEqual(value);
    }
  });

  it('makes a body the shared create schema accepts, with every option', () => {
    const body = formToCreateBody(
      valid({
        enableStopLoss: true,
        stopLossType: 'PERCENT',
        stopLossAmount: '50',
        enableTakeProfit: true,
        takeProfitAmount: '40',
        lookBackOrders: '5',
        maxVolMultiplier: '3',
        skipLowLeverage: true,
        lowLeverage: '3',
        skipLowCollateral: true,
        lowCollateral: '100',
        skipLowSize: true,
        lowSize: '1000',
        multipleCopy: true,
        accounts: [OTHER],
        side: 'LONG',
        reverseCopy: true,
      }),
    );
    const parsed = copyTradeCreateSchema.parse(body);
    expect(parsed).toMatchObject({
      title: 'Follow the whale',
      volume: 100,
      leverage: 10,
      type: 'COPY_TRADER',
      stopLossType: 'PERCENT',
      stopLossAmount: 50,
      takeProfitAmount: 40,
      lookBackOrders: 5,
      maxVolMultiplier: 3,
      lowLeverage: 3,
      lowCollateral: 100,
      lowSize: 1000,
      accounts: [OTHER],
      side: 'LONG',
      reverseCopy: true,
    });
    expect(copyTradeFormIssues(valid())).toEqual({});
  });

  it('leaves out amounts whose switch is off, and empty ones', () => {
    const body = formToCreateBody(valid({ stopLossAmount: '500', enableStopLoss: false, lowSize: '' }));
    expect(body).not.toHaveProperty('stopLossAmount');
    expect(body).not.toHaveProperty('lowSize');
    expect(body).not.toHaveProperty('maxVolMultiplier');
  });

  it('reports every rule of docs/api.md at its field, in words', () => {
    const issues = copyTradeFormIssues(
      valid({
        title: '',
        volume: '0',
        leverage: '51',
        enableStopLoss: true,
        stopLossType: 'USD',
        stopLossAmount: '150',
        enableTakeProfit: true,
        takeProfitAmount: '',
        lookBackOrders: '1.5',
        maxVolMultiplier: '-1',
        skipLowLeverage: true,
        lowLeverage: '200',
        skipLowCollateral: true,
        lowCollateral: '0.5',
        skipLowSize: true,
        copyAll: false,
        multipleCopy: true,
      }),
    );
    expect(issues.title).toBe('must be between 1 and 40 characters');
    expect(issues.volume).toBe('must be greater than 0 and at most 1000000');
    expect(issues.leverage).toBe('must be between 2 and 50');
    expect(issues.takeProfitAmount).toBe('is required when Take profit is on');
    expect(issues.lookBackOrders).toBe('must be an integer of at least 1 and at most 1000');
    expect(issues.maxVolMultiplier).toBe('must be greater than 0 and at most 1000');
    expect(issues.lowLeverage).toBe('must be between 1 and 150');
    expect(issues.lowCollateral).toBe('must be at least 1 and at most 1000000000');
    expect(issues.lowSize).toBe('is required when Skip low size is on');
    expect(issues.tokenAddresses).toBe('must not be empty when All tokens is off');
    expect(issues.accounts).toBe('must not be empty when Copy several traders is on');
  });

  it('checks a USD stop loss against the margin and a percent one against 100', () => {
    expect(copyTradeFormIssues(valid({ enableStopLoss: true, stopLossAmount: '150' })).stopLossAmount).toBe(
      'must be at most Margin per position when Stop-loss unit is USD',
    );
    expect(
      copyTradeFormIssues(valid({ enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: '101' }))
        .stopLossAmount,
    ).toBe('must be at most 100 when stopLossType is PERCENT'.replace('stopLossType', 'Stop-loss unit'));
    expect(
      copyTradeFormIssues(valid({ enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: '100' })),
    ).toEqual({});
  });

  it('says what is wrong with text that is not a number, and with a bad address', () => {
    const issues = copyTradeFormIssues(valid({ volume: 'abc', account: '0x123' }));
    expect(issues.volume).toBe('must be a number');
    expect(issues.account).toMatch(/0x address of 40 hex digits/);
    expect(copyTradeFormIssues(valid({ volume: '' })).volume).toBe('is required');
  });

  it('requires excluded tokens only when excluding', () => {
    expect(copyTradeFormIssues(valid({ hasExclude: true })).excludingTokenAddresses).toBe(
      'must not be empty when Exclude tokens is on',
    );
    expect(copyTradeFormIssues(valid({ hasExclude: true, excludingTokenAddresses: ['0xabc'] }))).toEqual({});
  });

  it('numbers: empty is absent, commas are thousands, junk is NaN', () => {
    expect(parseAmount('')).toBeUndefined();
    expect(parseAmount(' 1,000.5 ')).toBe(1000.5);
    expect(parseAmount('.5')).toBe(0.5);
    expect(parseAmount('1e3')).toBe(1000);
    expect(parseAmount('12abc')).toBeNaN();
  });

  it('splits pasted addresses on lines, commas and spaces, without repeats', () => {
    expect(splitAddresses(`${TRADER}\n${OTHER}, ${TRADER}  `)).toEqual([TRADER, OTHER]);
  });

  it('sends only what changed, and null for a cleared amount', () => {
    const stored = {
      ...copyTradeCreateSchema.parse(formToCreateBody(valid({ enableStopLoss: true, stopLossAmount: '20' }))),
      id: 't1',
      userId: 'u1',
      status: 'RUNNING',
      createdAt: '2026-01-01T00:00:00.000Z',
      stopLossAmount: 20,
      takeProfitAmount: null,
      lookBackOrders: null,
      maxVolMultiplier: null,
      lowLeverage: null,
      lowCollateral: null,
      lowSize: null,
    } as CopyTrade;
    const original = copyTradeToForm(stored);
    expect(formToUpdateChanges(original, original)).toEqual({});
    expect(formToUpdateChanges(original, { ...original, leverage: '20', enableStopLoss: false })).toEqual({
      leverage: 20,
      enableStopLoss: false,
      stopLossAmount: null,
    });
    expect(formToUpdateChanges(original, { ...original, multipleCopy: true, accounts: [OTHER] })).toEqual({
      multipleCopy: true,
      accounts: [OTHER],
    });
  });

  it('names fields in rule messages by their labels', () => {
    expect(humanizeRule('is required when enableStopLoss is true')).toBe('is required when Stop loss is on');
    expect(humanizeRule('must be at most volume')).toBe('must be at most Margin per position');
  });
});
