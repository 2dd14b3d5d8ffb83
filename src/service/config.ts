import { DEFAULT_GRAPHQL_NAMESPACE, DEFAULT_SERVICE_NAME, DEFAULT_VENUE } from '../shared/profile';
import type { FeedConfig } from './venues/hyperliquid/hyperliquid-feed';

/** Everything an operator can set on the local service (docs/service.md lists each). */
export interface ServiceConfig {
  host: string;
  port: number;
  dbPath: string;
  /** Stands at `<service_name>` in the login message. */
  serviceName: string;
  /** Replaces `perpx` in paths, field names and the exchange value. */
  venue: string;
  graphqlNamespace: string;
  /** Copy trades a new user may run at once. */
  copyTradeQuota: number;
  /** Sandbox balance of a new user's embedded wallet, in USD. */
  startingBalance: number;
  /** Withdrawal fees in USD (docs/api.md): service fee, venue transfer fee, venue withdraw fee. */
  withdrawFees: { service: number; transfer: number; withdraw: number };
  /** The smallest withdrawal before fees; the minimum a user may withdraw is this plus all fees. */
  withdrawBase: number;
  /** Requests per second per credential (or per address when anonymous), and the burst. */
  rateLimit: { perSecond: number; burst: number };
  /**
   * Milliseconds of the service's thread one caller's statistics searches may take a second, and
   * the most it may have in hand (`--search-budget`; docs/security.md, "Search time").
   */
  searchBudget: { msPerSecond: number; burstMs: number };
  /** The clock that times a search, in ms (performance.now); tests replace it. */
  searchClock: () => number;
  /** Browser origins allowed to call the service (`--cors-origin`); none by default (docs/real-clients.md). */
  corsOrigins: string[];
  /** `--public-anonymous`: the public statistic reads answer without a credential (docs/real-clients.md). */
  publicAnonymous: boolean;
  /**
   * The instant statistics and windows are computed as of (`--now`), so a run can be reproduced;
   * null = the clock. Logins, points in time and rate limits always use the clock.
   */
  asOf: Date | null;
  /** The key that opens the sandbox API (`--admin-key` or COPYDESK_ADMIN_KEY); null keeps it shut. */
  adminKey: string | null;
  /** Seed the deterministic fixture world into an empty store at start. */
  seedFixture: boolean;
  /** Seed the large demo world (5,000 traders, 8 protocols, 120 days) instead, into an empty store. */
  demo: boolean;
  /** Keep the market moving: price ticks and new orders every second, statistics following. */
  live: boolean;
  /** The Hyperliquid feed (`--feed hyperliquid`), or null for none (docs/venue-feed.md). */
  feed: Omit<FeedConfig, 'untilMs'> | null;
  /** Where long work (seeding) reports its progress. */
  onProgress: (progress: { phase: string; done: number; total: number }) => void;
  /** The service's clock; tests replace it. */
  now: () => Date;
}

/** The defaults: a local service on 127.0.0.1:8787 with its data in `dbPath`. */
export function defaultConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 8787,
    dbPath: 'copydesk-service.db',
    serviceName: DEFAULT_SERVICE_NAME,
    venue: DEFAULT_VENUE,
    graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
    copyTradeQuota: 5,
    startingBalance: 10_000,
    withdrawFees: { service: 1, transfer: 1, withdraw: 1 },
    withdrawBase: 5,
    rateLimit: { perSecond: 50, burst: 100 },
    searchBudget: { msPerSecond: 250, burstMs: 2_500 },
    searchClock: () => performance.now(),
    corsOrigins: [],
    publicAnonymous: false,
    adminKey: null,
    seedFixture: false,
    demo: false,
    live: false,
    feed: null,
    onProgress: () => undefined,
    asOf: null,
    now: () => new Date(),
    ...overrides,
  };
}

/** Milliseconds of the instant statistics are computed as of. */
export const statisticsNowMs = (config: ServiceConfig): number => (config.asOf ?? config.now()).getTime();
