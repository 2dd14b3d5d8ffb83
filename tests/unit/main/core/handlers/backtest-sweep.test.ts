import { describe, expect, it } from 'vitest';
import {
  SWEEP_FIELDS,
  sweepRequestSchema,
  type SweepItem,
  type SweepRequest,
  type SweepResponse,
  type SweepSettings,
} from '../../../../../src/shared/api/backtest';
import type { ServiceClient } from '../../../../../src/main/core/client/service-client';
import { CoreEvents } from '../../../../../src/main/core/events';
import {
  combinationsOf,
  createBacktestHandlers,
  splitSweep,
} from '../../../../../src/main/core/handlers/backtest';
import type { BacktestProgress } from '../../../../../src/shared/ipc/schemas/backtest';
import { expectAll } from '../../../../support/expect-all';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);

/**
 * A stand-in for the service's sweep: enumerates combinations as the service does (accounts
 * outermost, then SWEEP_FIELDS in order, the last varying fastest) and ranks them best score
 * first, equal scores in that order. Scores repeat on purpose, so the tie order is tested.
 */
function fakeSweep(body: SweepRequest): SweepResponse {
  let configs: SweepSettings[] = [
    {
      leverage: 5,
      orderVolume: 100,
      stopLossAmount: null,
      takeProfitAmount: null,
      lookBackOrders: null,
      maxVolMultiplier: null,
      reverseCopy: false,
      delaySeconds: 0,
    },
  ];
  for (const field of SWEEP_FIELDS) {
    const values = body[field] as unknown[] | undefined;
    if (values) configs = configs.flatMap((c) => values.map((v) => ({ ...c, [field]: v })));
  }
  const items: SweepItem[] = body.accounts.flatMap((account) =>
    configs.map((settings) => {
      const score = ((settings.leverage * 7 + (settings.stopLossAmount ?? 0)) % 4) + (account === A ? 0 : 1);
      return { account, roi: score, score, rank: 0, settings } as unknown as SweepItem;
    }),
  );
  const data = items
    .map((item, j) => ({ item, j }))
    .sort((a, b) => b.item.score - a.item.score || a.j - b.j)
    .map(({ item }, i) => ({ ...item, rank: i + 1 }));
  return { protocol: 'P', rankBy: 'roi', combinations: data.length, fromTime: 1, toTime: 2, data };
}

function harness(options: { onCall?: (n: number) => void } = {}) {
  const events = new CoreEvents();
  const progress: BacktestProgress[] = [];
  events.on('backtest:progress', (p) => progress.push(p));
  const bodies: SweepRequest[] = [];
  const client = {
    backtestSweep: async (_protocol: string, body: SweepRequest) => {
      bodies.push(body);
      options.onCall?.(bodies.length);
      return fakeSweep(body);
    },
  } as unknown as ServiceClient;
  const handlers = createBacktestHandlers({ client: async () => client, events });
  return { handlers, progress, bodies };
}

const sweepBody = (input: unknown): SweepRequest => sweepRequestSchema.parse(input);

describe('a sweep cut into pieces', () => {
  const body = sweepBody({
    accounts: [A, B],
    leverage: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    stopLossAmount: [10, 20, 30],
    enableStopLoss: true,
    stopLossType: 'PERCENT',
  });

  it('covers every combination once, one account per piece, slicing the outermost list', () => {
    const pieces = splitSweep(body, 8);
    expect(pieces.map((p) => [p.body.accounts, p.body.leverage])).toEqual([
      [[A], [2, 3, 4]],
      [[A], [5, 6, 7]],
      [[A], [8, 9, 10]],
      [[A], [11, 12, 13]],
      [[B], [2, 3, 4]],
      [[B], [5, 6, 7]],
      [[B], [8, 9, 10]],
      [[B], [11, 12, 13]],
    ]);
    expectAll(pieces, (p) => p.body.stopLossAmount?.length === 3);
    expect(pieces.reduce((n, p) => n + p.combinations, 0)).toBe(combinationsOf(body));
    expect(combinationsOf(body)).toBe(72);
  });

  it('cuts a sweep with no list into one piece per account', () => {
    const pieces = splitSweep(sweepBody({ accounts: [A, B], leverage: 3 }));
    expect(pieces.map((p) => p.body.accounts)).toEqual([[A], [B]]);
    expect(pieces.map((p) => p.combinations)).toEqual([1, 1]);
  });

  it('answers exactly what one whole sweep answers, ranks and ties included, with progress', async () => {
    const { handlers, progress, bodies } = harness();
    const answer = await handlers['backtest:sweep']({ protocol: 'P', runId: 'r1', body });
    expect(bodies.length).toBeGreaterThan(1);
    expect(answer.cancelled).toBe(false);
    expect(answer.total).toBe(72);
    const whole = fakeSweep(body);
    expect(answer.sweep.data).toEqual(whole.data);
    expect(answer.sweep.combinations).toBe(72);
    expect(progress[0]).toEqual({ runId: 'r1', done: 0, total: 72 });
    expect(progress.at(-1)).toEqual({ runId: 'r1', done: 72, total: 72 });
    expect(progress.length).toBe(bodies.length + 1);
    const dones = progress.map((p) => p.done);
    expect([...dones].sort((a, b) => a - b)).toEqual(dones);
  });

  it('stops between pieces when cancelled and ranks what ran', async () => {
    let cancel: Promise<{ cancelled: boolean }> | null = null;
    const { handlers, bodies } = harness({
      onCall: (n) => {
        if (n === 2) cancel = handlers['backtest:cancel']({ runId: 'r2' });
      },
    });
    const answer = await handlers['backtest:sweep']({ protocol: 'P', runId: 'r2', body });
    expect(await cancel).toEqual({ cancelled: true });
    expect(bodies.length).toBe(2);
    expect(answer.cancelled).toBe(true);
    expect(answer.sweep.data.length).toBe(bodies.reduce((n, b) => n + combinationsOf(b), 0));
    expect(answer.sweep.data.map((d) => d.rank)).toEqual(answer.sweep.data.map((_, i) => i + 1));
    // The run is over: cancelling it again changes nothing.
    expect(await handlers['backtest:cancel']({ runId: 'r2' })).toEqual({ cancelled: false });
  });
});
