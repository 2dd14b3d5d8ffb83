import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir, logDirOf } from '../node/data-dir';
import { exitWithParent } from '../node/parent-watch';
import { onStopSignal } from '../node/stop-signals';
import { createLocalService } from './app';
import { defaultConfig, type ServiceConfig } from './config';
import { createApiKey } from './auth/api-keys';
import { openServiceDatabase } from './store/database';
import { IMPORT_USAGE, runImportCommand } from './market/importers/command';
import { HYPERLIQUID_DEFAULTS } from './venues/hyperliquid/hyperliquid-feed';
import { parseCorsOrigins } from './http/cors';

/**
 * `npm run service -- [--host H] [--port P] [--db FILE] …` serves the API;
 * `npm run service -- create-api-key --db FILE` prints a new API key as its last line;
 * `npm run service -- import --db FILE --protocol NAME FILE...` imports venue fills (docs/importing.md).
 */
const USAGE = `Usage:
  npm run service -- [--host 127.0.0.1] [--port 8787] [--db FILE] [--service-name NAME] [--venue ID]
                     [--graphql-namespace NS] [--quota N] [--starting-balance USD] [--empty]
                     [--rate-limit PER_SECOND[:BURST]] [--search-budget MS_PER_SECOND[:BURST_MS]]
                     [--now ISO-TIME] [--log-dir DIR]
                     [--demo] [--live] [--admin-key KEY]
                     [--cors-origin ORIGIN[,ORIGIN…]] [--public-anonymous]
                     [--feed hyperliquid] [--feed-url URL] [--feed-ws-url URL] [--feed-leaderboard-url URL]
                     [--track ACCOUNT[,ACCOUNT…]] [--track-top N] [--feed-leverage N] [--feed-weight-per-minute N]
  npm run service -- create-api-key --db FILE [--label TEXT]
  ${IMPORT_USAGE}`;

class UsageError extends Error {}

const options = {
  host: { type: 'string' },
  port: { type: 'string' },
  db: { type: 'string' },
  'service-name': { type: 'string' },
  venue: { type: 'string' },
  'graphql-namespace': { type: 'string' },
  quota: { type: 'string' },
  'starting-balance': { type: 'string' },
  label: { type: 'string' },
  empty: { type: 'boolean' },
  demo: { type: 'boolean' },
  live: { type: 'boolean' },
  'rate-limit': { type: 'string' },
  'search-budget': { type: 'string' },
  now: { type: 'string' },
  'admin-key': { type: 'string' },
  'log-dir': { type: 'string' },
  feed: { type: 'string' },
  'feed-url': { type: 'string' },
  'feed-ws-url': { type: 'string' },
  'feed-leaderboard-url': { type: 'string' },
  track: { type: 'string', multiple: true },
  'track-top': { type: 'string' },
  'feed-leverage': { type: 'string' },
  'feed-weight-per-minute': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'public-anonymous': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

async function main(argv: string[]): Promise<void> {
  // The import command has flags of its own, so it parses its arguments itself.
  if (argv[0] === 'import') return void (process.exitCode = runImportCommand(argv.slice(1)));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return void console.log(USAGE);
  const command = positionals[0] ?? 'serve';
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${positionals[1]}`);
  if (command === 'create-api-key') return createKeyCommand(values);
  if (command !== 'serve') throw new UsageError(`unknown command ${command}`);
  const config = configFrom(values);
  // The log: --log-dir, else COPYDESK_LOG_DIR, else `logs` beside the database.
  await serveCommand(
    config,
    values['log-dir'] ?? process.env.COPYDESK_LOG_DIR ?? logDirOf(dirname(config.dbPath)),
  );
}

function configFrom(values: Flags): ServiceConfig {
  return defaultConfig({
    host: values.host ?? '127.0.0.1',
    port: values.port === undefined ? 8787 : integerFlag('--port', values.port, 0, 65535),
    dbPath: values.db ?? join(defaultDataDir(), 'service.db'),
    // A new database gets the fixture world unless --empty asks for none.
    seedFixture: values.empty !== true,
    adminKey: adminKeyFrom(values['admin-key'] ?? process.env.COPYDESK_ADMIN_KEY),
    demo: values.demo === true && values.empty !== true,
    live: values.live === true,
    onProgress: printProgress,
    feed: feedFrom(values),
    ...(values.now !== undefined && { asOf: parseNow(values.now) }),
    ...(values['cors-origin'] !== undefined && { corsOrigins: corsOriginsFlag(values['cors-origin']) }),
    ...(values['public-anonymous'] === true && { publicAnonymous: true }),
    ...(values['rate-limit'] !== undefined && { rateLimit: rateLimitFlag(values['rate-limit']) }),
    ...(values['search-budget'] !== undefined && { searchBudget: searchBudgetFlag(values['search-budget']) }),
    ...(values['service-name'] !== undefined && {
      serviceName: nonEmpty('--service-name', values['service-name']),
    }),
    ...(values.venue !== undefined && { venue: venueFlag(values.venue) }),
    ...(values['graphql-namespace'] !== undefined && {
      graphqlNamespace: nonEmpty('--graphql-namespace', values['graphql-namespace']),
    }),
    ...(values.quota !== undefined && { copyTradeQuota: integerFlag('--quota', values.quota, 0, 10_000) }),
    ...(values['starting-balance'] !== undefined && {
      startingBalance: numberFlag('--starting-balance', values['starting-balance']),
    }),
  });
}

async function serveCommand(config: ServiceConfig, logDir: string): Promise<void> {
  // Listens first and prepares its data after, answering meanwhile (docs/service.md, Listening
  // while preparing); a second start has nothing to prepare and is ready at its first line.
  const service = createLocalService(config, { logDir, prepareAfterListen: true });
  let stopping = false;
  const stop = () => {
    stopping = true;
    void service.close().finally(() => process.exit(0));
  };
  // Started by a terminal: ends with it, even one that was killed (src/node/parent-watch.ts).
  exitWithParent(stop);
  const startedMs = performance.now();
  const url = await service.listen();
  // Before the line that says it listens: whoever waits for that line may signal it at once.
  onStopSignal(stop);
  const preparing = service.preparing() !== null;
  console.log(
    `Copydesk local service listening on ${url} (database ${config.dbPath})${preparing ? `, ${PREPARING_WORDS}` : ''}`,
  );
  if (!preparing) return;
  service.prepared.then(
    () => console.log(`Copydesk local service ${PREPARED_WORDS} in ${secondsSince(startedMs)} s`),
    (error: Error) => {
      if (stopping) return;
      console.error(`copydesk service: preparing its data failed: ${error.message}`);
      void service.close().finally(() => process.exit(1));
    },
  );
}

/** The words of the two lines a terminal watches for (src/main/core/local-service). */
const PREPARING_WORDS = 'preparing its data';
const PREPARED_WORDS = 'prepared its data';

const secondsSince = (startMs: number): string => ((performance.now() - startMs) / 1000).toFixed(1);

function createKeyCommand(values: Flags): void {
  if (values.db === undefined)
    throw new UsageError(
      'create-api-key needs --db FILE: the database of the service that will accept the key',
    );
  const db = openServiceDatabase(values.db);
  try {
    const key = createApiKey(db, new Date(), values.label ?? '');
    console.log('Created an API key. It is shown once; the service keeps only its hash:');
    console.log(key);
  } finally {
    db.close();
  }
}

/**
 * The venue feed's flags. Its URLs default to the venue's public endpoints, or to
 * COPYDESK_FEED_URL / COPYDESK_FEED_WS_URL / COPYDESK_FEED_LEADERBOARD_URL (the terminal's tests point
 * them at a fake venue on 127.0.0.1).
 */
function feedFrom(values: Flags): ServiceConfig['feed'] {
  const feedOnly = ['feed-url', 'feed-ws-url', 'feed-leaderboard-url', 'track', 'track-top', 'feed-leverage']
    .concat('feed-weight-per-minute')
    .filter((name) => values[name as keyof Flags] !== undefined);
  if (values.feed === undefined) {
    if (feedOnly.length > 0) throw new UsageError(`--${feedOnly[0]} needs --feed hyperliquid`);
    return null;
  }
  if (values.feed !== 'hyperliquid')
    throw new UsageError('--feed must be hyperliquid (the one venue feed there is)');
  const env = process.env;
  return {
    infoUrl: urlFlag(
      '--feed-url',
      values['feed-url'] ?? env.COPYDESK_FEED_URL ?? HYPERLIQUID_DEFAULTS.infoUrl,
      ['http:', 'https:'],
    ).replace(/\/+$/, ''),
    wsUrl: urlFlag(
      '--feed-ws-url',
      values['feed-ws-url'] ?? env.COPYDESK_FEED_WS_URL ?? HYPERLIQUID_DEFAULTS.wsUrl,
      ['ws:', 'wss:'],
    ),
    leaderboardUrl: urlFlag(
      '--feed-leaderboard-url',
      values['feed-leaderboard-url'] ??
        env.COPYDESK_FEED_LEADERBOARD_URL ??
        HYPERLIQUID_DEFAULTS.leaderboardUrl,
      ['http:', 'https:'],
    ),
    track: (values.track ?? []).flatMap((list) => list.split(',')).map((a) => accountFlag(a.trim())),
    trackTop:
      values['track-top'] === undefined
        ? HYPERLIQUID_DEFAULTS.trackTop
        : integerFlag('--track-top', values['track-top'], 0, 10_000),
    leverage:
      values['feed-leverage'] === undefined
        ? HYPERLIQUID_DEFAULTS.leverage
        : rangeFlag('--feed-leverage', values['feed-leverage'], 1, 200),
    weightPerMinute:
      values['feed-weight-per-minute'] === undefined
        ? HYPERLIQUID_DEFAULTS.weightPerMinute
        : integerFlag('--feed-weight-per-minute', values['feed-weight-per-minute'], 120, 100_000_000),
  };
}

function urlFlag(name: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${name} must be a URL, not '${raw}'`);
  }
  if (!protocols.includes(url.protocol))
    throw new UsageError(`${name} must start with ${protocols.join(' or ')}//`);
  return raw;
}

function accountFlag(raw: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw))
    throw new UsageError(`--track: '${raw}' is not an address (0x and 40 hex digits)`);
  return raw.toLowerCase();
}

function rangeFlag(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max)
    throw new UsageError(`${name} must be a number from ${min} to ${max}`);
  return value;
}

function integerFlag(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function numberFlag(name: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new UsageError(`${name} must be a number ≥ 0`);
  return value;
}

/** The sandbox's admin key: at least 16 characters, so that it cannot be guessed. */
function adminKeyFrom(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (raw.length < 16) throw new UsageError('--admin-key must be at least 16 characters');
  return raw;
}

/** Progress of long work, one line at most every few percent: `progress: positions 40% (…)`. */
let lastProgress = '';
function printProgress(p: { phase: string; done: number; total: number }): void {
  const percent = p.total > 0 ? Math.floor((100 * p.done) / p.total / 5) * 5 : 0;
  const line = `progress: ${p.phase} ${percent}%`;
  if (line === lastProgress) return;
  lastProgress = line;
  console.log(`${line} (${p.done}/${p.total})`);
}

/** `--now 2023-05-03T00:00:00Z`: the instant statistics are computed as of. */
function parseNow(raw: string): Date {
  const date = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(date.getTime())) {
    throw new UsageError('--now must be an ISO 8601 time such as 2023-05-03T00:00:00Z');
  }
  return date;
}

/** `--rate-limit 50` or `--rate-limit 50:100` (per second, burst). */
function rateLimitFlag(raw: string): ServiceConfig['rateLimit'] {
  const [perSecond, burst] = raw.split(':');
  const rate = integerFlag('--rate-limit', perSecond ?? '', 1, 10_000_000);
  return {
    perSecond: rate,
    burst: burst === undefined ? rate * 2 : integerFlag('--rate-limit burst', burst, 1, 10_000_000),
  };
}

/** `--search-budget 250` or `--search-budget 250:2500` (ms a second, ms in hand at most). */
function searchBudgetFlag(raw: string): ServiceConfig['searchBudget'] {
  const [perSecond, burst] = raw.split(':');
  const msPerSecond = integerFlag('--search-budget', perSecond ?? '', 1, 10_000_000);
  return {
    msPerSecond,
    burstMs:
      burst === undefined ? msPerSecond * 10 : integerFlag('--search-budget burst', burst, 0, 10_000_000),
  };
}

/** `--cors-origin http://localhost:3000[,…]`, repeatable (docs/real-clients.md). */
function corsOriginsFlag(raw: string[]): string[] {
  const parsed = parseCorsOrigins(raw.join(','));
  if ('error' in parsed) throw new UsageError(parsed.error);
  return parsed.origins;
}

function nonEmpty(name: string, raw: string): string {
  if (raw.trim() === '') throw new UsageError(`${name} must not be empty`);
  return raw;
}

function venueFlag(raw: string): string {
  if (!/^[a-z][a-z0-9]*$/.test(raw))
    throw new UsageError('--venue must be lowercase letters and digits, starting with a letter');
  return raw;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`copydesk service: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`copydesk service: ${(error as Error).message}`);
  process.exit(1);
});
