import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { RotatingLogFile } from '../node/log-file';
import type { ServiceConfig } from './config';
import { authRoutes } from './http/routes/auth';
import { tokenRoutes } from './http/routes/tradable-tokens';
import { statisticRoutes } from './http/routes/statistics';
import { copyTradingRoutes } from './http/routes/copy-trading';
import { graphqlRoutes } from './graphql/routes';
import { eventRoutes } from './http/routes/events';
import { sandboxRoutes } from './http/routes/sandbox';
import { copyPositionActionRoutes } from './http/routes/copy-positions-actions';
import { withdrawFeeRoutes } from './http/routes/withdraw-fees';
import { CopyEngine } from './copy-engine/engine';
import { catchUpSourceOrders } from './copy-engine/market-orders';
import type { CopyEvent } from './copy-engine/types';
import { LiveStatistics } from './statistics/compute/live-statistics';
import { statisticsIndexOf } from './statistics/index/statistics-index';
import { warmIndex, type WarmUp } from './statistics/index/warm-up';
import { statisticsNowMs } from './config';
import { UserEvents } from './events/user-events';
import { installErrorHandlers } from './http/errors';
import { installJsonParser } from './http/json-body';
import { installRateLimit } from './http/rate-limit';
import { SearchBudget } from './http/search-budget';
import { installCors } from './http/cors';
import { realClientConfigRoutes } from './http/routes/real-client-config';
import { traderExtraRoutes } from './http/routes/trader-extras';
import type { ServiceContext } from './http/context';
import { startWalCheckpointer } from '../node/wal-checkpointer';
import { openServiceDatabase, type ServiceDb } from './store/database';
import { jwtSecret } from './store/meta';
import { seedTokenCatalogue } from './market/token-listing';
import { demoWorldToSeed, prepareData, startLiveWorld } from './preparation/demo-world';
import { Preparation } from './preparation/preparation';
import { busyWhilePreparing, installPreparingGuard } from './http/preparing-guard';
import type { PreparingProgress } from '../shared/api/preparing';
import { feedRoutes } from './http/routes/feed';
import { backtestRoutes } from './http/routes/backtest';
import { candleRoutes } from './http/routes/candles';
import { HyperliquidFeed } from './venues/hyperliquid/hyperliquid-feed';

/** Bodies over 1 MiB answer 413 (docs/api.md, Limits). */
const BODY_LIMIT = 1024 * 1024;

export interface LocalService {
  app: FastifyInstance;
  ctx: ServiceContext;
  db: ServiceDb;
  config: ServiceConfig;
  /** The venue feed, when the configuration asks for one; it starts when the service listens. */
  feed: HyperliquidFeed | null;
  /**
   * Resolves once the data is prepared (at once when there was nothing to prepare, or when it was
   * prepared before createLocalService returned); rejects when preparing it failed.
   */
  prepared: Promise<void>;
  /** Where the preparation is while the service answers 503 PREPARING, else null. */
  preparing(): PreparingProgress | null;
  /** Listens on the configured host and port (0 picks a free one); resolves with the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface LocalServiceOptions {
  /** Fastify's own logger to stdout (tests); ignored when `logDir` is given. */
  logger?: boolean;
  /** Where the service writes `service.log` (rotated by size, 0600), e.g. `<data folder>/logs`. */
  logDir?: string;
  /**
   * Seed the demo world after listening, in a worker thread, and answer meanwhile: tokens, login
   * and health at once, 503 PREPARING for the rest (the command line does; docs/service.md,
   * Listening while preparing). Other data (the fixture world, `--now`'s statistics) is prepared
   * before createLocalService returns either way, as is everything without this option.
   */
  prepareAfterListen?: boolean;
}

/**
 * What Fastify's logger (pino) must never write (docs/security.md, Logs): the credentials in
 * request headers. Request bodies are not logged at all (some hold keys or signatures), and the
 * log file scrubs secret-shaped text from every line besides.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-admin-key"]',
  'req.headers.cookie',
  'req.body',
  'res.headers["set-cookie"]',
];

/** A request as its log line shows it: no headers, no body, the path without its query string. */
const requestSerializer = (req: { method?: string; url?: string; id?: unknown }) => ({
  id: req.id,
  method: req.method,
  url: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
});

/**
 * The access log (docs/service.md, "The log"): one line per answered request with its method, path
 * (no query string), status and time in milliseconds, and the request id every other line of the
 * request carries; a request whose answer failed to be written is logged at `error` with it.
 * Fastify's own request logging wrote two lines a request (`incoming request`, `request
 * completed`), each through the serializers, the redaction and a synchronous write: 0.04–0.065 ms
 * of CPU a request, a twentieth of a statistics miss. Fastify's other lines (its error handler, a
 * route not found) are unchanged.
 */
class AccessLog extends LogController {
  /** `enabled` false: the service has no logger (tests), and nothing is put together. */
  constructor(private readonly enabled: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!this.enabled) return;
    const url = request.url;
    const query = url.indexOf('?');
    const line = {
      method: request.method,
      url: query < 0 ? url : url.slice(0, query),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

function loggerOf(options: LocalServiceOptions): {
  logger: FastifyServerOptions['logger'];
  file: RotatingLogFile | null;
} {
  if (options.logDir === undefined) return { logger: options.logger ?? false, file: null };
  const file = new RotatingLogFile(options.logDir, 'service');
  return {
    logger: {
      level: 'info',
      stream: file,
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestSerializer },
    },
    file,
  };
}

/** Builds the local service over its SQLite store, ready to listen. */
export function createLocalService(config: ServiceConfig, options: LocalServiceOptions = {}): LocalService {
  const db = openServiceDatabase(config.dbPath);
  // Checkpoints run on a worker thread, not inside the commits of the copy engine (docs/copy-engine.md).
  const checkpointer = startWalCheckpointer(db, config.dbPath);
  // The token catalogue first: it is small, and /pairs/tokens answers from it while preparing.
  seedTokenCatalogue(db);
  // Only the demo world's seeding is long enough to be worth a worker (docs/service.md).
  const inBackground = options.prepareAfterListen === true && demoWorldToSeed(db, config);
  const preparation = new Preparation(inBackground);
  if (!inBackground) prepareData(db, config);
  const ctx: ServiceContext = {
    db,
    config,
    secret: jwtSecret(db),
    events: new UserEvents(),
    searchBudget: new SearchBudget({
      ...config.searchBudget,
      now: () => config.now().getTime(),
      clock: config.searchClock,
    }),
  };
  // Event streams stay open: closing the service must end them rather than wait for them.
  const log = loggerOf(options);
  const app = Fastify({
    logger: log.logger,
    // One access line a request, written when the answer is sent, not Fastify's two.
    logController: new AccessLog(log.logger !== false),
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
  });
  installErrorHandlers(
    app,
    busyWhilePreparing(() => preparation.current()),
  );
  installJsonParser(app);
  installCors(app, config.corsOrigins);
  installRateLimit(app, ctx, { ...config.rateLimit, now: () => config.now().getTime() });
  installPreparingGuard(app, () => preparation.current());
  authRoutes(app, ctx);
  // The live market starts once the data is prepared; /health reports its state once it runs.
  let live: ReturnType<typeof startLiveWorld> | null = null;
  tokenRoutes(app, ctx, () => ({ market: live?.health() ?? null, preparing: preparation.current() }));
  statisticRoutes(app, ctx);
  realClientConfigRoutes(app, ctx);
  traderExtraRoutes(app, ctx);
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
  const feed = config.feed
    ? new HyperliquidFeed(
        { ...config.feed, untilMs: config.asOf?.getTime() ?? null },
        {
          db,
          engine,
          statistics,
          publish,
          nowMs: () => config.now().getTime(),
          log: (message) => {
            app.log.warn({ source: 'feed' }, message);
            console.error(`copydesk service: ${message}`);
          },
        },
      )
    : null;
  feedRoutes(app, ctx, feed);
  backtestRoutes(app, ctx, feed?.candles ?? null);
  candleRoutes(app, ctx, feed?.candles ?? null);
  let closed = false;
  let listening = false;
  let warmUp: WarmUp | null = null;
  /** What runs over the prepared data: the copy catch-up, the live market, the venue feed. */
  const startWork = () => {
    if (closed) return;
    // The statistics index is built from the prepared store before the first read needs it.
    statisticsIndexOf(db).reloadAll();
    // Then, in the background, the columns and orders the first queries would make (warm-up.ts).
    warmUp = warmIndex(statisticsIndexOf(db));
    void warmUp.leaderboardWarm.then(({ made, cpuMs, end }) => {
      // Not once closed: the log file is closed with the service.
      if (!closed) app.log.info({ made, cpuMs: Math.round(cpuMs), end }, 'statistics index warmed');
    });
    void warmUp.ended.then(({ end, error }) => {
      if (end === 'failed' && !closed) app.log.warn({ error }, 'statistics index warm-up failed');
    });
    // Orders the market committed before a crash but never copied are copied now, once.
    catchUpSourceOrders(db, engine);
    live = config.live ? startLiveWorld(db, config, { statistics, engine, onEvents: publish }) : null;
    if (listening) feed?.start();
  };
  if (!inBackground) startWork();
  app.addHook('onClose', async () => {
    closed = true;
    warmUp?.stop();
    await preparation.stop();
    live?.stop();
    await feed?.stop();
    await checkpointer?.stop();
    db.close();
    log.file?.close();
  });
  return {
    app,
    ctx,
    db,
    config,
    feed,
    prepared: preparation.finished,
    preparing: () => preparation.current(),
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      listening = true;
      if (!inBackground) feed?.start();
      else {
        preparation.start(config, (progress) =>
          config.onProgress({ phase: progress.step, done: progress.done, total: progress.total }),
        );
        // A failure is the command line's to report (it exits); the data stays unprepared.
        preparation.finished.then(startWork, () => undefined);
      }
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host}:${port}`;
    },
    close: () => app.close(),
  };
}
