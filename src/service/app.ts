import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceConfig } from './config';
import { authRoutes } from './http/routes/auth';
import { tokenRoutes } from './http/routes/tokens';
import { statisticRoutes } from './http/routes/statistics';
import { copyTradingRoutes } from './http/routes/copy-trading';
import { graphqlRoutes } from './graphql/routes';
import { eventRoutes } from './http/routes/events';
import { sandboxRoutes } from './http/routes/sandbox';
import { copyPositionActionRoutes } from './http/routes/copy-positions-actions';
import { withdrawFeeRoutes } from './copy-trading/withdraw-fees-route';
import { CopyEngine } from './copy/engine';
import { catchUpSourceOrders } from './copy-feed';
import type { CopyEvent } from './copy/types';
import { LiveStatistics } from './statistics/live-statistics';
import { statisticsNowMs } from './config';
import { UserEvents } from './events/user-events';
import { installErrorHandlers } from './http/errors';
import { installJsonParser } from './http/json-body';
import { installRateLimit } from './http/rate-limit';
import type { ServiceContext } from './http/context';
import { openServiceDatabase, type ServiceDb } from './store/database';
import { jwtSecret, readMeta } from './store/meta';
import { recomputeAll } from './statistics/recompute';
import { seedTokenCatalogue } from './market/tokens';
import { prepareWorld, startLiveWorld } from './world';
import { feedRoutes } from './http/routes/feed';
import { HyperliquidFeed } from './venues/hyperliquid/hyperliquid-feed';

/** Bodies over 1 MiB answer 413 (decisions.md, Limits). */
const BODY_LIMIT = 1024 * 1024;

export interface LocalService {
  app: FastifyInstance;
  ctx: ServiceContext;
  db: ServiceDb;
  config: ServiceConfig;
  /** The venue feed, when the configuration asks for one; it starts when the service listens. */
  feed: HyperliquidFeed | null;
  /** Listens on the configured host and port (0 picks a free one); resolves with the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Builds the local service over its SQLite store, ready to listen. */
export function createLocalService(config: ServiceConfig, options: { logger?: boolean } = {}): LocalService {
  const db = openServiceDatabase(config.dbPath);
  seedTokenCatalogue(db);
  prepareWorld(db, config);
  // `--now`: statistics as of that instant, recomputed when the store holds another instant's.
  if (config.asOf && readMeta(db, 'statistics_as_of') !== config.asOf.toISOString())
    recomputeAll(db, config.asOf.getTime());
  const ctx: ServiceContext = { db, config, secret: jwtSecret(db), events: new UserEvents() };
  // Event streams stay open: closing the service must end them rather than wait for them.
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
  });
  installErrorHandlers(app);
  installJsonParser(app);
  installRateLimit(app, { ...config.rateLimit, now: () => config.now().getTime() });
  authRoutes(app, ctx);
  tokenRoutes(app, ctx);
  statisticRoutes(app, ctx);
  copyTradingRoutes(app, ctx);
  withdrawFeeRoutes(app, ctx);
  graphqlRoutes(app, ctx);
  eventRoutes(app, ctx);
  // The copy engine follows every source order: the live market's, the sandbox's.
  const engine = new CopyEngine(db, config);
  const statistics = new LiveStatistics(db, () => statisticsNowMs(config));
  const publish = (events: CopyEvent[]) => ctx.events.publish(events);
  copyPositionActionRoutes(app, ctx, engine, publish);
  sandboxRoutes(app, ctx, { engine, statistics });
  // Orders the market committed before a crash but never copied are copied now, once.
  catchUpSourceOrders(db, engine);
  const live = config.live ? startLiveWorld(db, config, { statistics, engine, onEvents: publish }) : null;
  const feed = config.feed
    ? new HyperliquidFeed(
        { ...config.feed, untilMs: config.asOf?.getTime() ?? null },
        {
          db,
          engine,
          statistics,
          publish,
          nowMs: () => config.now().getTime(),
          log: (message) => console.error(`copydesk service: ${message}`),
        },
      )
    : null;
  feedRoutes(app, ctx, feed);
  app.addHook('onClose', async () => {
    live?.stop();
    await feed?.stop();
    db.close();
  });
  return {
    app,
    ctx,
    db,
    config,
    feed,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      feed?.start();
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host}:${port}`;
    },
    close: () => app.close(),
  };
}
