// The soak's clients, each a loop that keeps going across restarts:
// - a user client per user: statistic filters (REST and GraphQL), copy-trade edits, reads, manual
//   closes, deposits and withdrawals, keeping the ledger the invariants are checked against;
// - an event stream per user, reconnecting with Last-Event-ID;
// - a trader per followed account, sending its orders through the sandbox (resent until
//   confirmed: the sandbox takes each order id once);
// - a market that moves the mark prices, so stop losses and take profits fire.
import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { DEFAULT_SERVICE_NAME, DEFAULT_VENUE, withdrawPath } from '../../src/shared/profile';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import type { WalletLedger } from './invariants';
import { Dropped, pause, request, untilAnswered, type ServiceGate, type TrafficCounts } from './traffic';

export const PROTOCOL = 'NOVA_ARB';
const SYMBOLS = ['BTC', 'ETH', 'SOL'] as const;
const WINDOWS = ['D7', 'D15', 'D30', 'D60', 'FULL'] as const;
const SORTS = ['pnl', 'winRate', 'totalTrade', 'avgRoi', 'maxDrawdown'] as const;

export interface SoakContext {
  gate: ServiceGate;
  counts: TrafficCounts;
  adminKey: string;
  startingBalance: number;
}

export interface SoakUser {
  token: string;
  embeddedWallet: string;
  copyTradeIds: string[];
  ledger: WalletLedger;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const cents = (n: number) => Math.round(n * 100) / 100;

/** Logs a fresh wallet in (sign on this side, as the terminal does) and finds its embedded wallet. */
export async function loginUser(ctx: SoakContext): Promise<SoakUser> {
  const account = privateKeyToAccount(generatePrivateKey());
  const code = await request(ctx.gate, ctx.counts, 'POST', '/auth/web3/login', {
    body: { address: account.address },
  });
  const time = new Date().toISOString();
  const verifyCode = (code.body as { verifyCode: string }).verifyCode;
  const sign = await account.signMessage({ message: loginMessage(DEFAULT_SERVICE_NAME, time, verifyCode) });
  const login = await request(ctx.gate, ctx.counts, 'POST', '/auth/web3/verify-login', {
    body: { address: account.address, sign, time },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const token = `Bearer ${(login.body as { access_token: string }).access_token}`;
  const wallets = await request(ctx.gate, ctx.counts, 'GET', '/copy-wallets/list', {
    headers: { authorization: token },
  });
  const list = wallets.body as Record<string, unknown>[];
  const wallet = list[0] as { id: string } & Record<string, { embeddedWallet: string }>;
  return {
    token,
    embeddedWallet: (wallet[DEFAULT_VENUE] as { embeddedWallet: string }).embeddedWallet,
    copyTradeIds: [],
    ledger: {
      walletId: wallet.id,
      startingBalance: ctx.startingBalance,
      deposits: [],
      uncertainDeposit: null,
      withdrawals: new Map(),
    },
  };
}

/** Two copy trades per user: one with exits in percent, one reversed with exits in USD. */
export async function followTraders(ctx: SoakContext, user: SoakUser, traders: readonly string[]) {
  for (const [i, account] of traders.entries()) {
    const body = {
      title: `Soak ${i}`,
      volume: 100,
      account,
      leverage: 5,
      protocol: PROTOCOL,
      exchange: DEFAULT_VENUE.toUpperCase(),
      copyWalletId: user.ledger.walletId,
      type: 'COPY_TRADER',
      excludingTokenAddresses: [],
      tokenAddresses: [],
      ...(i % 2 === 0
        ? { stopLossType: 'PERCENT', stopLossAmount: 20, takeProfitType: 'PERCENT', takeProfitAmount: 30 }
        : {
            reverseCopy: true,
            stopLossType: 'USD',
            stopLossAmount: 15,
            takeProfitType: 'USD',
            takeProfitAmount: 25,
          }),
    };
    const made = await request(ctx.gate, ctx.counts, 'POST', '/copy-trades', {
      headers: { authorization: user.token },
      body,
    });
    if (made.status !== 201) throw new Error(`copy trade refused: ${JSON.stringify(made.body)}`);
    user.copyTradeIds.push((made.body as { id: string }).id);
  }
}

/** The mark prices, a random walk per token, shared by the market and the traders. */
export class Market {
  readonly prices = new Map<string, number>(
    SYMBOLS.map((s, i) => [indexTokenAddress(PROTOCOL, s), 100 * (i + 1)]),
  );

  step(): void {
    for (const [token, price] of this.prices)
      this.prices.set(token, cents(Math.max(1, price * (1 + (Math.random() - 0.5) * 0.02))));
  }
}

/** Sends the mark prices every `everyMs` until the run ends. */
export async function runMarket(ctx: SoakContext, market: Market, everyMs: number): Promise<void> {
  while (!ctx.gate.done) {
    market.step();
    const prices = [...market.prices].map(([indexToken, price]) => ({ indexToken, price, time: Date.now() }));
    try {
      await request(ctx.gate, ctx.counts, 'POST', '/sandbox/prices', {
        headers: { 'x-admin-key': ctx.adminKey },
        body: { prices },
      });
    } catch (error) {
      if (!(error instanceof Dropped)) throw error;
    }
    await pause(everyMs);
  }
}

/** What a trader client confirmed, for the invariants. */
export interface TraderRecord {
  confirmedIds: string[];
  txHashes: Set<string>;
}

/**
 * A followed trader: opens, grows, trims and closes positions token by token, each order sent
 * (alone or with the next ones) until the service confirms it.
 */
export async function runTrader(
  ctx: SoakContext,
  market: Market,
  account: string,
  record: TraderRecord,
  everyMs: number,
): Promise<void> {
  const steps = [
    ['OPEN', 5000, 500],
    ['INCREASE', 2000, 200],
    ['DECREASE', 3000, 0],
    ['CLOSE', 4000, 700],
  ] as const;
  let n = 0;
  let lastMs = 0;
  while (!ctx.gate.done) {
    const symbol = pick(SYMBOLS);
    const indexToken = indexTokenAddress(PROTOCOL, symbol);
    const isLong = Math.random() < 0.5;
    for (let s = 0; s < steps.length && !ctx.gate.done;) {
      const batch: Record<string, unknown>[] = [];
      for (const take = Math.random() < 0.2 ? 2 : 1; batch.length < take && s < steps.length; s += 1) {
        const [type, size, collateral] = steps[s] as (typeof steps)[number];
        lastMs = Math.max(Date.now(), lastMs + 1);
        n += 1;
        const txHash = `0x${randomUUID().replaceAll('-', '')}${n.toString(16).padStart(32, '0')}`;
        batch.push({
          id: `${account}-${n}`,
          account,
          protocol: PROTOCOL,
          indexToken,
          isLong,
          type,
          sizeDeltaNumber: size,
          collateralDeltaNumber: collateral,
          priceNumber: market.prices.get(indexToken) as number,
          blockTime: lastMs,
          txHash,
        });
        record.txHashes.add(txHash);
      }
      const sent = await untilAnswered(ctx.gate, () =>
        request(ctx.gate, ctx.counts, 'POST', '/sandbox/orders', {
          headers: { 'x-admin-key': ctx.adminKey },
          body: { orders: batch },
        }),
      );
      if (sent?.status === 200) record.confirmedIds.push(...batch.map((o) => o.id as string));
      await pause(everyMs);
    }
  }
}

/** One user's mixed load until the run ends. */
export async function runUser(ctx: SoakContext, user: SoakUser, traders: readonly string[]): Promise<void> {
  const as =
    (method: string, path: string, body?: unknown, expect4xx = false) =>
    () =>
      request(ctx.gate, ctx.counts, method, path, {
        headers: { authorization: user.token },
        ...(body !== undefined && { body }),
        expect4xx,
      });
  const actions: [number, () => Promise<unknown>][] = [
    [15, () => as('POST', `/${PROTOCOL}/position/statistic/filter`, randomFilter(false))()],
    [15, () => as('POST', `/public/${PROTOCOL}/position/statistic/filter`, randomFilter(true))()],
    [15, () => as('POST', '/graphql', randomSearch())()],
    // The traders' own statistics: none until their first order is stored, so a 404 is an answer.
    [3, () => as('GET', `/public/${PROTOCOL}/position/statistic/trader/${pick(traders)}`, undefined, true)()],
    [8, () => editCopyTrade(ctx, user)],
    [10, as('POST', '/copy-positions/page?limit=20&status=OPEN', {})],
    [8, as('POST', '/activity-logs/page', { pagination: { limit: 20, offset: 0 } })],
    [5, as('GET', '/copy-wallets/list')],
    [4, () => closeOnePosition(ctx, user)],
    [4, () => withdraw(ctx, user)],
    [3, () => deposit(ctx, user)],
  ];
  const total = actions.reduce((a, [w]) => a + w, 0);
  while (!ctx.gate.done) {
    let roll = Math.random() * total;
    const action = (actions.find(([w]) => (roll -= w) < 0) ?? actions[0])?.[1];
    try {
      await action?.();
    } catch (error) {
      if (!(error instanceof Dropped)) throw error;
    }
    await pause(5);
  }
}

/** A statistic filter; the public route also takes ranges (on metrics and percentile rankings). */
function randomFilter(withRanges: boolean) {
  return {
    queries: [{ fieldName: 'type', value: pick(WINDOWS) }],
    ...(withRanges && {
      ranges:
        Math.random() < 0.3
          ? []
          : [
              {
                fieldName: pick(['winRate', 'totalTrade', 'pnl', 'ranking.pnl']),
                gte: Math.round(Math.random() * 40),
              },
            ],
    }),
    sortBy: pick(SORTS),
    sortType: pick(['asc', 'desc']),
    pagination: { limit: pick([10, 20, 50]), offset: pick([0, 0, 20, 100]) },
  };
}

function randomSearch() {
  return {
    query: `query Q($index: String!, $body: SearchPayload!) {
      searchPositionStatistic(index: $index, body: $body) { data { id account pnl winRate } meta { total } }
    }`,
    variables: {
      index: 'local.position_statistics',
      body: {
        filter: {
          and: [
            { field: 'protocol', match: PROTOCOL },
            { field: 'type', match: pick(WINDOWS) },
            { field: pick(['winRate', 'totalTrade']), gte: Math.round(Math.random() * 30) },
          ],
        },
        sorts: [{ field: pick(SORTS), direction: pick(['asc', 'desc']) }],
        paging: { size: 20, from: pick([0, 20]) },
      },
    },
  };
}

/** Changes a copy trade's volume or leverage; the next copies size by the new values. */
function editCopyTrade(ctx: SoakContext, user: SoakUser) {
  const body = Math.random() < 0.5 ? { volume: pick([50, 80, 100, 120]) } : { leverage: pick([2, 3, 5, 8]) };
  return request(ctx.gate, ctx.counts, 'PUT', `/copy-trades/${pick(user.copyTradeIds)}`, {
    headers: { authorization: user.token },
    body,
  });
}

/** Closes one open copy position by hand, when there is one. */
async function closeOnePosition(ctx: SoakContext, user: SoakUser) {
  const page = await request(ctx.gate, ctx.counts, 'POST', '/copy-positions/page?limit=5&status=OPEN', {
    headers: { authorization: user.token },
    body: {},
  });
  const open = (page.body as { data?: { id: string }[] }).data ?? [];
  if (open.length === 0) return;
  // The engine may close it first (a stop loss, the trader's own close): a 4xx is an answer here.
  await request(ctx.gate, ctx.counts, 'POST', `/copy-positions/${pick(open).id}/close`, {
    headers: { authorization: user.token },
    expect4xx: true,
  });
}

/**
 * A withdrawal with one idempotency key, sent until answered: a retry after a crash must find
 * the first one, never pay again. The ledger knows the key before the first send.
 */
async function withdraw(ctx: SoakContext, user: SoakUser) {
  const key = randomUUID();
  const amount = cents(8 + Math.random() * 4);
  user.ledger.withdrawals.set(key, { amount, confirmedId: null });
  const answer = await untilAnswered(ctx.gate, () =>
    request(ctx.gate, ctx.counts, 'POST', withdrawPath(DEFAULT_VENUE), {
      headers: { authorization: user.token, 'idempotency-key': key },
      body: { sourceAddress: user.embeddedWallet, destinationAddress: user.embeddedWallet, amount },
      expect4xx: true,
    }),
  );
  if (answer === null) return;
  if (answer.status === 200 || answer.status === 201) {
    const entry = user.ledger.withdrawals.get(key);
    if (entry) entry.confirmedId = (answer.body as { data: { txHash: string } }).data.txHash;
  } else if (answer.status < 500) {
    // Refused (a balance too low): nothing stored under this key.
    user.ledger.withdrawals.delete(key);
  }
}

/** A deposit through the sandbox; one lost to a crash is settled by the next balance check. */
async function deposit(ctx: SoakContext, user: SoakUser) {
  if (user.ledger.uncertainDeposit !== null) return;
  const amount = cents(20 + Math.random() * 10);
  user.ledger.uncertainDeposit = amount;
  const answer = await request(ctx.gate, ctx.counts, 'POST', '/sandbox/deposit', {
    headers: { 'x-admin-key': ctx.adminKey },
    body: { address: user.embeddedWallet, amount },
  });
  user.ledger.uncertainDeposit = null;
  if (answer.status === 200) user.ledger.deposits.push(amount);
}

/** The user's event stream, read until the run ends, reconnecting after each restart. */
export async function runEvents(
  ctx: SoakContext,
  user: SoakUser,
  received: { events: number },
): Promise<void> {
  let lastId: string | null = null;
  while (!ctx.gate.done) {
    const url = await ctx.gate.whenUp();
    if (url === null) return;
    try {
      const response = await fetch(`${url}/events`, {
        headers: { authorization: user.token, ...(lastId !== null && { 'last-event-id': lastId }) },
      });
      ctx.counts.requests += 1;
      if (response.status >= 500) ctx.counts.errors5xx += 1;
      if (!response.body) continue;
      const decoder = new TextDecoder();
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        for (const match of decoder.decode(chunk, { stream: true }).matchAll(/^id: (.+)$/gm)) {
          lastId = match[1] as string;
          received.events += 1;
        }
        if (ctx.gate.done) break;
      }
    } catch {
      // The stream ended with the service; reconnect once it is back.
    }
    await pause(100);
  }
}
