import { describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { liveFeedRequestSchema } from '@shared/ipc/schemas/live';
import {
  checkAmount,
  checkDestination,
  maxWithdrawable,
  previewProblem,
  withdrawalKeyFor,
} from '@renderer/pages/funds/withdraw-form';
import {
  embeddedAddressOf,
  marginInUse,
  numberField,
  type WalletRecord,
} from '@renderer/pages/funds/wallet-view';
import {
  EMPTY_LIVE_FILTERS,
  isFiltered,
  liveRequest,
  minSizeProblem,
  pairsOf,
} from '@renderer/filters/live-filters';

const LOWER = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';
const CHECKSUMMED = getAddress(LOWER);

describe('withdrawal destination', () => {
  it('accepts a checksummed, an all-lower and an all-upper address', () => {
    expect(checkDestination(CHECKSUMMED)).toEqual({ ok: true, address: CHECKSUMMED });
    expect(checkDestination(`  ${LOWER} `)).toEqual({ ok: true, address: LOWER });
    expect(checkDestination(`0x${LOWER.slice(2).toUpperCase()}`).ok).toBe(true);
  });

  it('refuses a mixed-case address whose checksum is wrong', () => {
    const typo = CHECKSUMMED.slice(0, -1) + (CHECKSUMMED.endsWith('F') ? 'f' : 'F');
    const check = checkDestination(typo);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.problem).toMatch(/checksum/);
  });

  it('says what is missing in a short or malformed address, nothing for an empty one', () => {
    expect(checkDestination('')).toEqual({ ok: false, problem: null });
    expect(checkDestination('71c7656ec7ab88b098defb751b7401b5f6d8976f')).toMatchObject({
      problem: 'An address starts with 0x.',
    });
    expect(checkDestination('0x1234')).toMatchObject({
      problem: 'An address has 40 hex digits after 0x; this has 4.',
    });
    expect(checkDestination('0xzz').ok).toBe(false);
  });

  it('refuses the wallet it withdraws from', () => {
    expect(checkDestination(LOWER, CHECKSUMMED).ok).toBe(false);
  });
});

describe('withdrawal amount', () => {
  it('takes a positive amount with at most 6 decimals', () => {
    expect(checkAmount('25.5')).toEqual({ ok: true, amount: 25.5 });
    expect(checkAmount('1,000')).toEqual({ ok: true, amount: 1000 });
    expect(checkAmount('0')).toMatchObject({ ok: false });
    expect(checkAmount('1.1234567')).toMatchObject({ ok: false });
    expect(checkAmount('-5')).toMatchObject({ ok: false });
    expect(checkAmount('')).toEqual({ ok: false, problem: null });
  });

  it('explains the minimum and the available balance from the preview', () => {
    const preview = {
      amount: 6,
      feeAmount: 1,
      transferFee: 1,
      withdrawFee: 1,
      withdrawAmount: 4,
      receiveAmount: 3,
      minimum: 8,
      availableBalance: 100,
      problem: null,
      feeSource: 'profile' as const,
    };
    expect(previewProblem(preview)).toBe('The minimum withdrawal is $8.00: 5 USD plus the fees.');
    expect(previewProblem({ ...preview, amount: 150 })).toBe('That is more than the available $100.00.');
    expect(previewProblem({ ...preview, amount: 50 })).toBeNull();
    expect(previewProblem({ ...preview, problem: 'The service says no.' })).toBe('The service says no.');
    expect(maxWithdrawable(12.3456789)).toBe(12.345678);
  });
});

describe('wallet records', () => {
  const wallet: WalletRecord = {
    id: 'w1',
    name: 'Embedded wallet',
    exchange: 'ACME',
    balance: 1000,
    availableBalance: 850,
    createdAt: '2026-01-01T00:00:00.000Z',
    acme: { apiKey: null, embeddedWallet: CHECKSUMMED, isEmbedded: true, verified: true },
    pnl24h: 10,
  };

  it('finds the embedded address under whatever the venue is called', () => {
    expect(embeddedAddressOf(wallet)).toBe(CHECKSUMMED);
    expect(embeddedAddressOf(wallet, 'acme')).toBe(CHECKSUMMED);
    expect(embeddedAddressOf({ ...wallet, acme: { embeddedWallet: null } })).toBeNull();
  });

  it('reads optional figures and the margin in use', () => {
    expect(numberField(wallet, 'pnl24h')).toBe(10);
    expect(numberField(wallet, 'totalPnl')).toBeNull();
    expect(marginInUse(wallet)).toBe(150);
  });
});

describe('live filters', () => {
  it('make a request the contract accepts', () => {
    const request = liveRequest({ protocol: 'NOVA_ARB', pair: ' btc/usd ', side: 'LONG', minSize: '10,000' });
    expect(request).toEqual({
      protocols: ['NOVA_ARB'],
      pair: 'BTC/USD',
      side: 'LONG',
      minSize: 10000,
      limit: 50,
    });
    expect(liveFeedRequestSchema.safeParse(request).success).toBe(true);
    expect(liveRequest(EMPTY_LIVE_FILTERS)).toEqual({ protocols: [], side: 'BOTH', limit: 50 });
  });

  it('leave out a minimum size that cannot be read, and say why', () => {
    expect(minSizeProblem('abc')).toMatch(/size in USD/);
    expect(minSizeProblem('')).toBeNull();
    expect(liveRequest({ ...EMPTY_LIVE_FILTERS, minSize: 'abc' })).not.toHaveProperty('minSize');
  });

  it('know when they narrow, and list the pairs seen', () => {
    expect(isFiltered(EMPTY_LIVE_FILTERS)).toBe(false);
    expect(isFiltered({ ...EMPTY_LIVE_FILTERS, side: 'SHORT' })).toBe(true);
    expect(pairsOf([{ pair: 'ETH-USD' }, { pair: 'BTC-USD' }, { pair: 'ETH-USD' }])).toEqual([
      'BTC-USD',
      'ETH-USD',
    ]);
  });
});

describe('withdrawalKeyFor (one Idempotency-Key per confirmed withdrawal)', () => {
  it('keeps the key for a retry of the same withdrawal and makes a new one for another', () => {
    let n = 0;
    const newKey = () => `key-${++n}`;
    const request = {
      sourceAddress: '0x1111111111111111111111111111111111111111',
      destinationAddress: '0x2222222222222222222222222222222222222222',
      amount: 20,
    };
    const first = withdrawalKeyFor(null, request, newKey);
    expect(withdrawalKeyFor(first, { ...request }, newKey).key).toBe('key-1');
    expect(
      withdrawalKeyFor(
        first,
        { ...request, destinationAddress: request.destinationAddress.toUpperCase().replace('0X', '0x') },
        newKey,
      ).key,
    ).toBe('key-1');
    expect(withdrawalKeyFor(first, { ...request, amount: 21 }, newKey).key).toBe('key-2');
  });
});
