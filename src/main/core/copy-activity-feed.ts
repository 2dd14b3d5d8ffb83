import { requestKey, type EventPayload } from '../../shared';
import type { Connectivity } from './cache/connectivity';
import type { WithdrawalLog } from './cache/withdrawal-log';
import { ServiceEventStream, type EventStreamOptions } from './client/event-stream';
import type { CoreEvents } from './events';
import type { ProfileContext, ProfileManager } from './profiles/profile-manager';

type Activity = EventPayload<'copy:activity'>;

/** The service's event names (src/service/copy-engine/types.ts CopyEvent) → the terminal's activity. */
function activityOf(event: string, payload: unknown, at: string): Activity | null {
  const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  switch (event) {
    case 'copyPositionOpened':
      return { kind: 'copyPosition', action: 'opened', data: body.copyPosition, at };
    case 'copyPositionUpdated':
      return { kind: 'copyPosition', action: 'updated', data: body.copyPosition, at };
    case 'copyPositionClosed':
      return { kind: 'copyPosition', action: 'closed', data: body.copyPosition, at };
    case 'activityLog': {
      const log = body.activityLog as { type?: unknown } | undefined;
      return {
        kind: 'activityLog',
        action: typeof log?.type === 'string' ? log.type : 'logged',
        data: log,
        at,
      };
    }
    case 'withdrawalSettled':
      return { kind: 'withdrawal', action: 'settled', data: body.withdrawal, at };
    default:
      return null;
  }
}

export interface CopyActivityFeedDeps {
  profiles: ProfileManager;
  events: CoreEvents;
  withdrawals: WithdrawalLog;
  connectivity: Connectivity;
  now?: () => Date;
  /** Stream tuning (tests). */
  stream?: Pick<EventStreamOptions, 'backoff' | 'idleTimeoutMs'>;
}

/**
 * Keeps the active profile's event stream open while its user is logged in and forwards each
 * item as `copy:activity`; a settled withdrawal also updates the core's withdrawal record.
 * `sync()` is called whenever the session or the active profile changes.
 */
export class CopyActivityFeed {
  private stream: ServiceEventStream | null = null;
  private streamProfile: string | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: CopyActivityFeedDeps) {
    // A stream waiting to reconnect need not wait longer once the service answers again.
    deps.events.on('connection:state', (state) => {
      if (state.state === 'online') this.stream?.retryNow();
    });
  }

  /** Opens or closes the stream to match the active profile's session. */
  sync(): Promise<void> {
    this.chain = this.chain
      .then(() => this.apply())
      .catch((error: unknown) => {
        console.error('[copydesk core] the copy activity stream could not be set up', error);
      });
    return this.chain;
  }

  /** Closes the stream for good. */
  async close(): Promise<void> {
    this.closed = true;
    await this.chain;
    await this.stream?.stop();
    this.stream = null;
  }

  private async apply(): Promise<void> {
    const context = this.deps.profiles.active();
    const { loggedIn } = this.closed ? { loggedIn: false } : await context.session.status();
    if (this.stream?.active && this.streamProfile === context.id && loggedIn) return;
    await this.stream?.stop();
    this.stream = null;
    this.streamProfile = null;
    if (!loggedIn) return;
    this.stream = this.open(context);
    this.streamProfile = context.id;
    this.stream.start();
  }

  private open(context: ProfileContext): ServiceEventStream {
    const { events, connectivity } = this.deps;
    const now = this.deps.now ?? (() => new Date());
    return new ServiceEventStream({
      ...this.deps.stream,
      baseUrl: async () => (await context.serviceClient()).profile.baseUrl,
      token: () => context.session.currentToken(),
      renew: () => context.session.renew(),
      onOpen: () => {
        if (this.deps.profiles.active() === context) connectivity.reportSuccess();
      },
      onEvent: (name, payload) => {
        const activity = activityOf(name, payload, now().toISOString());
        if (!activity) return;
        if (activity.kind === 'withdrawal') this.settle(context, activity.data);
        if (this.deps.profiles.active() === context) events.emit('copy:activity', activity);
      },
    });
  }

  /** A settled withdrawal: update the record, and push the new list to a view showing it. */
  private settle(context: ProfileContext, withdrawal: unknown): void {
    const { withdrawals, events } = this.deps;
    if (!withdrawals.settle(context.id, withdrawal, context.profile.venue)) return;
    void context.session.status().then(({ session }) => {
      if (!session || this.deps.profiles.active() !== context) return;
      events.emit('data:fresh', {
        channel: 'withdrawals:list',
        key: requestKey('withdrawals:list', {}),
        value: {
          data: withdrawals.list(context.id, session.userId),
          freshness: { fetchedAt: new Date().toISOString(), fromCache: false, stale: false },
        },
      });
    });
  }
}
