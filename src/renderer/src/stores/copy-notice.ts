// What a desktop notification says about a `copy:activity` event. Pure, so it is unit-tested.
import type { EventPayload } from '@shared/ipc/contract';
import { formatUsd } from '@renderer/format/number';

export interface CopyNotice {
  title: string;
  body: string;
  /** Same tag, same notification: an update replaces rather than stacks. */
  tag: string;
}

type Activity = EventPayload<'copy:activity'>;

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** The copy position in the event, whether the core sent it bare or as `{copyPosition}`. */
function positionOf(data: unknown): Record<string, unknown> | null {
  const outer = record(data);
  return record(outer?.copyPosition) ?? outer;
}

/** Which of the two moments a trader wants to hear about this is: opened, closed, or neither. */
export function positionMoment(activity: Activity): 'opened' | 'closed' | null {
  if (activity.kind !== 'copyPosition') return null;
  // The service names them copyPositionOpened/Updated/Closed; the core may pass a short form.
  if (/open/i.test(activity.action)) return 'opened';
  if (/close/i.test(activity.action)) return 'closed';
  return null;
}

/** What a failed copy tried to do to the position, as a verb. */
const FAILED_VERBS: Record<string, string> = { OPEN: 'open', INCREASE: 'add to' };

/** The notification for a copy the engine could not make (a failed activity log), or null. */
function failureNotice(activity: Activity): CopyNotice | null {
  if (activity.kind !== 'activityLog') return null;
  const log = record(activity.data);
  if (log?.isSuccess !== false) return null;
  const pair = typeof log.pair === 'string' ? log.pair : 'a position';
  // isLong is the copy's side (already reversed for a reverse copy).
  const side = log.isLong === true ? 'long' : log.isLong === false ? 'short' : '';
  const what = [pair, side].filter(Boolean).join(' ');
  const verb = (typeof log.type === 'string' && FAILED_VERBS[log.type]) || 'copy';
  const trade = typeof log.copyTradeTitle === 'string' ? log.copyTradeTitle : 'A copy trade';
  const why = typeof log.reason === 'string' && log.reason !== '' ? `: ${log.reason}` : '';
  return {
    title: `Copy failed: ${what}`,
    body: `${trade} could not ${verb} ${what}${why}.`,
    tag: `copy-log-${typeof log.id === 'string' ? log.id : activity.at}`,
  };
}

/** The notification for a copy position that opened or closed, or a copy that failed; null for anything else. */
export function copyActivityNotice(activity: Activity): CopyNotice | null {
  const failed = failureNotice(activity);
  if (failed) return failed;
  const moment = positionMoment(activity);
  if (!moment) return null;
  const p = positionOf(activity.data);
  const pair = typeof p?.pair === 'string' ? p.pair : 'A position';
  const side = p?.isLong === true ? 'long' : p?.isLong === false ? 'short' : '';
  const trade = typeof p?.copyTradeTitle === 'string' ? p.copyTradeTitle : null;
  const id = typeof p?.id === 'string' ? p.id : activity.at;
  const what = [pair, side].filter(Boolean).join(' ');
  if (moment === 'opened') {
    const margin = typeof p?.initialVol === 'number' ? ` with ${formatUsd(p.initialVol)} margin` : '';
    return {
      title: `Copy opened: ${what}`,
      body: `${trade ? `${trade} opened ${what}` : `Opened ${what}`}${margin}.`,
      tag: `copy-position-${id}`,
    };
  }
  const pnl = typeof p?.pnl === 'number' ? ` PnL ${formatUsd(p.pnl, { signed: true })}.` : '';
  const why = typeof p?.closeType === 'string' ? ` (${p.closeType.toLowerCase().replace(/_/g, ' ')})` : '';
  return {
    title: `Copy closed: ${what}`,
    body: `${trade ? `${trade} closed ${what}` : `Closed ${what}`}${why}.${pnl}`,
    tag: `copy-position-${id}`,
  };
}
