// The fake venue of bench:feed in a process of its own, so that serving 1,000,000 fills costs the
// bench process nothing. Messages (IPC): it sends {ready, baseUrl, wsUrl, leaderboardUrl}; it takes
// {live: {accounts, perSecond, seconds}} and pushes that many WebSocket fills, open loop, then
// sends {liveDone, pushed}.
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000);
const FILLS_PER_ACCOUNT = Number(process.env.BENCH_FILLS_PER_ACCOUNT ?? 1_000);
const DAY = 86_400_000;

async function main(): Promise<void> {
  const venue = await FakeHyperliquid.start({ weightPerMinute: 1e12 });
  const accounts = generateAccounts(ACCOUNTS, 11);
  const now = Date.now();
  let fills = 0;
  for (const [i, account] of accounts.entries()) {
    const history = generateFills({
      account,
      seed: 1_000 + i,
      count: FILLS_PER_ACCOUNT,
      startMs: now - 365 * DAY,
      endMs: now - 60_000,
    });
    venue.setFills(account, history);
    fills += history.length;
  }
  process.send?.({
    ready: true,
    baseUrl: venue.baseUrl,
    wsUrl: venue.wsUrl,
    leaderboardUrl: venue.leaderboardUrl,
    accounts,
    fills,
  });
  process.on('message', (message: { live?: { accounts: string[]; perSecond: number; seconds: number } }) => {
    if (message.live) void pushLive(venue, message.live);
  });
  process.on('disconnect', () => void venue.close().then(() => process.exit(0)));
}

/**
 * Open loop: one fill every 1/perSecond s, whatever the feed does, round robin over `accounts`;
 * each account opens a long on BTC and closes it with its next fill, so every fill is an order
 * its followers copy.
 */
async function pushLive(
  venue: FakeHyperliquid,
  plan: { accounts: string[]; perSecond: number; seconds: number },
) {
  const total = Math.round(plan.perSecond * plan.seconds);
  const open = new Map<string, boolean>();
  const start = performance.now();
  let tid = 9e15;
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / plan.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const account = plan.accounts[i % plan.accounts.length] as string;
    const isOpen = open.get(account) === true;
    open.set(account, !isOpen);
    tid += 1;
    const fill: VenueFill = {
      coin: 'BTC',
      px: (30_000 + (i % 100)).toFixed(1),
      sz: '0.01',
      side: isOpen ? 'A' : 'B',
      time: Date.now(),
      startPosition: isOpen ? '0.01' : '0.0',
      dir: isOpen ? 'Close Long' : 'Open Long',
      closedPnl: '0.0',
      hash: `0x${tid.toString(16).padStart(64, '0')}`,
      oid: tid,
      crossed: true,
      fee: '0.1',
      tid,
      feeToken: 'USDC',
    };
    venue.pushFill(account, fill);
  }
  process.send?.({ liveDone: true, pushed: total });
}

void main();
