// The backtest channels (docs/ui.md, Backtest; the service side is docs/backtest.md).
//
// `backtest:run` is one call to the service. `backtest:sweep` is sent as several smaller sweeps
// (one trader and a slice of the outermost swept list each), so that the core can report
// `backtest:progress` between them and `backtest:cancel` can stop the run between two of them;
// the pieces are merged and ranked again exactly as the service ranks one sweep.
import {
  SWEEP_FIELDS,
  type SweepItem,
  type SweepRequest,
  type SweepResponse,
} from '../../../shared/api/backtest';
import type { ServiceClient } from '../client/service-client';
import { CoreError } from '../errors';
import type { CoreEvents } from '../events';
import type { Handlers } from './handlers';

type BacktestChannel = 'backtest:run' | 'backtest:sweep' | 'backtest:cancel';

/** About how many requests one sweep is cut into: progress moves in steps of about 5 %. */
export const SWEEP_PIECES = 20;

/** A sweep body with one account and a slice of the outermost swept list. */
export interface SweepPiece {
  body: SweepRequest;
  /** Combinations in this piece. */
  combinations: number;
}

/** The number of combinations of a sweep body: accounts × the length of every swept list. */
export function combinationsOf(body: SweepRequest): number {
  let count = body.accounts.length;
  for (const field of SWEEP_FIELDS) count *= (body[field] as unknown[] | undefined)?.length ?? 1;
  return count;
}

/**
 * Cuts a sweep into pieces whose results, concatenated in order, list the combinations in the
 * service's own enumeration order (accounts outermost, then the swept fields in SWEEP_FIELDS
 * order), so that equal scores keep the order one whole sweep would give them.
 */
export function splitSweep(body: SweepRequest, pieces = SWEEP_PIECES): SweepPiece[] {
  const outer = SWEEP_FIELDS.find((f) => ((body[f] as unknown[] | undefined)?.length ?? 0) > 1);
  const values = outer ? (body[outer] as unknown[]) : [undefined];
  const perAccount = Math.max(1, Math.min(values.length, Math.ceil(pieces / body.accounts.length)));
  const size = Math.ceil(values.length / perAccount);
  const result: SweepPiece[] = [];
  for (const account of body.accounts) {
    for (let from = 0; from < values.length; from += size) {
      const piece: SweepRequest = { ...body, accounts: [account] };
      if (outer) (piece as Record<string, unknown>)[outer] = values.slice(from, from + size);
      result.push({ body: piece, combinations: combinationsOf(piece) });
    }
  }
  return result;
}

/**
 * Ranks the pieces' items together as the service ranks one sweep: best score first, equal scores
 * in enumeration order (the piece's place, then the item's place among the piece's combinations).
 */
export function mergeSweep(
  parts: readonly { piece: SweepPiece; answer: SweepResponse }[],
  template: Omit<SweepResponse, 'data' | 'combinations'>,
): SweepResponse {
  const items = parts.flatMap(({ piece, answer }, p) =>
    answer.data.map((item) => ({ item, p, j: enumerationIndex(piece.body, item) })),
  );
  items.sort((a, b) => b.item.score - a.item.score || a.p - b.p || a.j - b.j);
  const data = items.map(({ item }, i) => ({ ...item, rank: i + 1 }));
  return { ...template, combinations: data.length, data };
}

/**
 * Where an item stands in its (one-account) piece's enumeration: the swept fields read as the
 * digits of a mixed-radix number, the last field varying fastest, as the service enumerates them.
 * Two items of equal settings have equal scores, so a repeated value's first place is as good.
 */
export function enumerationIndex(body: SweepRequest, item: SweepItem): number {
  let index = 0;
  for (const field of SWEEP_FIELDS) {
    const values = body[field] as unknown[] | undefined;
    if (!values) continue;
    index = index * values.length + Math.max(0, values.indexOf(item.settings[field]));
  }
  return index;
}

export interface BacktestDeps {
  client: () => Promise<ServiceClient>;
  events: CoreEvents;
}

/** The backtest channels: a run, a sweep with progress, and its cancel. */
export function createBacktestHandlers(deps: BacktestDeps): Pick<Handlers, BacktestChannel> {
  const running = new Map<string, AbortController>();
  return {
    'backtest:run': async ({ protocol, body }) => (await deps.client()).backtest(protocol, body),
    'backtest:sweep': async ({ protocol, runId, body }) => {
      if (running.has(runId)) throw new CoreError('CONFLICT', `A sweep named ${runId} is already running.`);
      const control = new AbortController();
      running.set(runId, control);
      try {
        const client = await deps.client();
        const pieces = splitSweep(body);
        const total = combinationsOf(body);
        const parts: { piece: SweepPiece; answer: SweepResponse }[] = [];
        let done = 0;
        deps.events.emit('backtest:progress', { runId, done, total });
        for (const piece of pieces) {
          if (control.signal.aborted) break;
          parts.push({ piece, answer: await client.backtestSweep(protocol, piece.body) });
          done += piece.combinations;
          deps.events.emit('backtest:progress', { runId, done, total });
        }
        const first = parts[0]?.answer;
        const rankBy = body.rankBy ?? 'roi';
        const sweep = mergeSweep(parts, {
          protocol,
          rankBy,
          fromTime: first?.fromTime ?? body.fromTime ?? 0,
          toTime: first?.toTime ?? body.toTime ?? 0,
        });
        return { cancelled: control.signal.aborted, total, sweep };
      } finally {
        running.delete(runId);
      }
    },
    'backtest:cancel': async ({ runId }) => {
      const control = running.get(runId);
      if (!control || control.signal.aborted) return { cancelled: false };
      control.abort();
      return { cancelled: true };
    },
  };
}
