import { z } from 'zod';
import {
  embeddedWalletsPath,
  pnlStatisticsPath,
  withdrawFeesPath,
  withdrawFeesSchema,
  withdrawPath,
  type ServiceProfile,
  type WithdrawFees,
} from '../../../shared/profile';
import { isAppErrorCode } from '../../../shared/result';
import {
  activityLogSchema,
  type ActivityLog,
  type ActivityLogsPageBodyInput,
} from '../../../shared/api/activity-logs';
import { loginResponseSchema, userSchema, type User } from '../../../shared/api/auth';
import { paged, type Paged } from '../../../shared/api/common';
import {
  copyOrderSchema,
  copyPositionSchema,
  type CopyOrder,
  type CopyPosition,
  type CopyPositionsPageBody,
  type CopyPositionsPageQueryInput,
} from '../../../shared/api/copy-positions';
import {
  copyTradeListItemSchema,
  copyTradeSchema,
  type CopyTrade,
  type CopyTradeCreateInput,
  type CopyTradeListBody,
  type CopyTradeListItem,
  type CopyTradeUpdateInput,
} from '../../../shared/api/copy-trades';
import {
  copyWalletSchema,
  embeddedCopyWalletSchema,
  withdrawalSchema,
  type CopyWallet,
  type EmbeddedCopyWallet,
  type Withdrawal,
  type WithdrawRequest,
} from '../../../shared/api/copy-wallets';
import {
  GRAPHQL_QUERY_INDEX_KIND,
  GraphqlPageError,
  indexName,
  unwrapGraphqlPage,
  type GraphqlQueryName,
  type GraphqlSearchBodyInput,
} from '../../../shared/api/graphql';
import { bareOrWrapped } from '../../../shared/api/lists';
import {
  orderSchema,
  positionSchema,
  type Order,
  type Position,
  type PositionFilterBodyInput,
} from '../../../shared/api/positions';
import {
  positionStatisticSchema,
  pnlStatisticsResponseSchema,
  publicStatisticItemSchema,
  searchAfterResponseSchema,
  SEARCH_AFTER_PATH,
  traderStatisticsByWindowSchema,
  type PnlStatisticsRequestInput,
  type PnlStatisticsResponse,
  type PositionStatistic,
  type PublicStatisticFilterBodyInput,
  type PublicStatisticItem,
  type SearchAfterRequestInput,
  type SearchAfterResponse,
  type StatisticFilterBodyInput,
  type TraderStatisticsByWindow,
} from '../../../shared/api/statistics';
import { tokensResponseSchema, type TokensResponse } from '../../../shared/api/tradable-tokens';
import type {
  BacktestRequestInput,
  BacktestResponse,
  SweepRequestInput,
  SweepResponse,
} from '../../../shared/api/backtest';
import { candlesResponseSchema, type CandlesQuery, type CandlesResponse } from '../../../shared/api/candles';
import { backtestResponseSchema, sweepResponseSchema } from '../../../shared/ipc/schemas/backtest';
import { feedStatusResponseSchema, type FeedAccountsBody, type FeedStatus } from '../../../shared/api/feed';
import { NO_CREDENTIALS, type CredentialKind, type Credentials } from './credentials';
import { GRAPHQL_SELECTIONS, searchQueryText, takesProtocols } from './graphql-queries';
import {
  httpRequest,
  requestJson,
  ServiceRequestError,
  type HttpOptions,
  type HttpRequest,
  type RequestSpec,
} from './http';
import { DEFAULT_RETRY_POLICY, realSleep, withRetry, type RetryPolicy, type Sleep } from './retry';
import { DEFAULT_PREPARING_POLICY, waitWhilePreparing, type PreparingPolicy } from './preparing-wait';

/** How long one call may take before the terminal says the service did not answer. */
const DEFAULT_TIMEOUT_MS = 15_000;

/** Which credentials an endpoint takes (docs/api.md, Authentication). */
type Auth = 'none' | 'jwt' | 'apiKey' | 'jwtOrApiKey';

/** One call: the request, the credentials it takes, and whether it may be retried. */
interface Call extends RequestSpec {
  auth: Auth;
  /** Idempotent calls (reads, read-only filters, keyed withdrawals) retry; other writes never do. */
  idempotent: boolean;
}

const SEARCH_AFTER_CALL = (body: SearchAfterRequestInput): Call => ({
  method: 'POST',
  path: SEARCH_AFTER_PATH,
  body,
  auth: 'apiKey',
  idempotent: true,
});

export interface ServiceClientOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The session's token and the profile's API key, read at each call. Default: none. */
  credentials?: Credentials;
  /** Retries of idempotent calls. Default: 3 tries, 250 ms doubling, waits capped at 5 s. */
  retry?: Partial<RetryPolicy>;
  /** How to wait between tries (tests inject one that moves a test clock). */
  sleep?: Sleep;
  /** The clock that `sleep` moves; default Date.now. */
  now?: () => number;
  /** How calls wait out a service preparing its data. Default: as long as it makes progress. */
  preparing?: Partial<PreparingPolicy>;
}

/** The four GraphQL searches answer these items. */
export interface GraphqlItems {
  searchTopOpeningPosition: Position;
  livePosition: Position;
  searchOrders: Order;
  searchPositionStatistic: PositionStatistic;
}

const GRAPHQL_ITEM_SCHEMAS: { [Q in GraphqlQueryName]: z.ZodType<GraphqlItems[Q]> } = {
  searchTopOpeningPosition: positionSchema,
  livePosition: positionSchema,
  searchOrders: orderSchema,
  searchPositionStatistic: positionStatisticSchema,
};

/** Options of a GraphQL search: `protocols` for the position searches, a narrower selection. */
export interface GraphqlSearchOptions {
  /** Only for searchTopOpeningPosition and livePosition; all protocols when omitted. */
  protocols?: string[];
  /** Fields to select instead of every field the item schema reads (required fields must stay). */
  selection?: string;
}

const seg = (value: string): string => encodeURIComponent(value);

/**
 * The API of one deployment, typed by the contract in src/shared. Paths and names that depend
 * on the venue come from the profile. Every answer is checked with the contract's schema, in its
 * tolerant variant where docs/api.md lists "also seen" shapes.
 */
export class ServiceClient {
  private readonly http: HttpOptions;
  private readonly credentials: Credentials;
  private readonly retry: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly preparing: PreparingPolicy;

  constructor(
    readonly profile: ServiceProfile,
    options: ServiceClientOptions = {},
  ) {
    this.http = {
      baseUrl: profile.baseUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.fetch && { fetch: options.fetch }),
    };
    this.credentials = options.credentials ?? NO_CREDENTIALS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
    this.preparing = { ...DEFAULT_PREPARING_POLICY, ...options.preparing };
  }

  // ── Auth and tokens ──────────────────────────────────────────────────────────────────────

  /** `POST /auth/web3/login`: a code for the address to sign. */
  async login(address: string): Promise<string> {
    const answer = await this.call(
      { method: 'POST', path: '/auth/web3/login', body: { address }, auth: 'none', idempotent: false },
      loginResponseSchema,
    );
    return answer.verifyCode;
  }

  /** `POST /auth/web3/verify-login`: the signed message for the user and its token. */
  async verifyLogin(body: { address: string; sign: string; time: string }): Promise<User> {
    return this.call(
      { method: 'POST', path: '/auth/web3/verify-login', body, auth: 'none', idempotent: false },
      userSchema,
    );
  }

  /** `GET /pairs/tokens`: tradable tokens by protocol. */
  async tokens(): Promise<TokensResponse['data']> {
    const answer = await this.call(
      { method: 'GET', path: '/pairs/tokens', auth: 'none', idempotent: true },
      tokensResponseSchema,
    );
    return answer.data;
  }

  /** `GET /health` (outside the spec): true when the service answers; never retried. */
  async health(): Promise<boolean> {
    try {
      await this.call({ method: 'GET', path: '/health', auth: 'none', idempotent: false }, z.unknown());
      return true;
    } catch {
      return false;
    }
  }

  // ── Trader statistics and positions (JWT or API key) ─────────────────────────────────────

  /** `POST /{protocol}/position/statistic/filter`: a page of statistic records. */
  async statisticFilter(
    protocol: string,
    body: StatisticFilterBodyInput = {},
  ): Promise<Paged<PositionStatistic>> {
    return this.read(
      'POST',
      `/${seg(protocol)}/position/statistic/filter`,
      body,
      paged(positionStatisticSchema),
    );
  }

  /** `POST /public/{protocol}/position/statistic/filter`: ranges (also on `ranking.<key>`), rankings. */
  async publicStatisticFilter(
    protocol: string,
    body: PublicStatisticFilterBodyInput = {},
  ): Promise<Paged<PublicStatisticItem>> {
    return this.read(
      'POST',
      `/public/${seg(protocol)}/position/statistic/filter`,
      body,
      paged(publicStatisticItemSchema),
    );
  }

  /** `GET /public/{protocol}/position/statistic/trader/{account}`: a ranked record per window. */
  async traderStatistics(protocol: string, account: string): Promise<TraderStatisticsByWindow> {
    return this.read(
      'GET',
      `/public/${seg(protocol)}/position/statistic/trader/${seg(account)}`,
      undefined,
      traderStatisticsByWindowSchema,
    );
  }

  /** `POST /trial/position/statistic/search-after` (API key only): one batch and the next cursor. */
  async searchAfter(body: SearchAfterRequestInput = {}): Promise<SearchAfterResponse> {
    return this.call(SEARCH_AFTER_CALL(body), searchAfterResponseSchema);
  }

  /**
   * search-after with the HTTP exchange itself done by `transport`: a bulk download has the
   * batch reader fetch and parse each batch on its own thread. Credentials, retries and re-login
   * stay here, as for every call.
   */
  async searchAfterVia<T>(
    body: SearchAfterRequestInput,
    transport: (request: HttpRequest) => Promise<T>,
  ): Promise<T> {
    return this.exchange(SEARCH_AFTER_CALL(body), (spec) => transport(httpRequest(this.http, spec)));
  }

  /** `POST /public/position/statistic-<venue>/pnl-statistics`: daily series keyed by account. */
  async pnlStatistics(body: PnlStatisticsRequestInput): Promise<PnlStatisticsResponse> {
    return this.read('POST', pnlStatisticsPath(this.profile.venue), body, pnlStatisticsResponseSchema);
  }

  /** `POST /{protocol}/position/filter[/{account}]`: a page of a protocol's positions. */
  async positionFilter(
    protocol: string,
    body: PositionFilterBodyInput = {},
    account?: string,
  ): Promise<Paged<Position>> {
    const path = `/${seg(protocol)}/position/filter${account === undefined ? '' : `/${seg(account)}`}`;
    return this.read('POST', path, body, paged(positionSchema));
  }

  // ── GraphQL (JWT or API key) ─────────────────────────────────────────────────────────────

  /** `searchTopOpeningPosition` on `<namespace>.positions`: open positions. */
  searchTopOpeningPositions(
    body: GraphqlSearchBodyInput = {},
    options: GraphqlSearchOptions = {},
  ): Promise<Paged<Position>> {
    return this.graphqlSearch('searchTopOpeningPosition', body, options);
  }

  /** `livePosition` on `<namespace>.positions`: open or closed positions. */
  searchLivePositions(
    body: GraphqlSearchBodyInput = {},
    options: GraphqlSearchOptions = {},
  ): Promise<Paged<Position>> {
    return this.graphqlSearch('livePosition', body, options);
  }

  /** `searchOrders` on `<namespace>.orders`. */
  searchOrders(
    body: GraphqlSearchBodyInput = {},
    options: Omit<GraphqlSearchOptions, 'protocols'> = {},
  ): Promise<Paged<Order>> {
    return this.graphqlSearch('searchOrders', body, options);
  }

  /** `searchPositionStatistic` on `<namespace>.position_statistics`. */
  searchPositionStatistics(
    body: GraphqlSearchBodyInput = {},
    options: Omit<GraphqlSearchOptions, 'protocols'> = {},
  ): Promise<Paged<PositionStatistic>> {
    return this.graphqlSearch('searchPositionStatistic', body, options);
  }

  /**
   * One GraphQL search. The page may come nested `{data: {<query>: {data, meta}}}` or flat
   * `{data, meta}`; a GraphQL `errors` answer becomes a ServiceRequestError with its message.
   */
  async graphqlSearch<Q extends GraphqlQueryName>(
    query: Q,
    body: GraphqlSearchBodyInput = {},
    options: GraphqlSearchOptions = {},
  ): Promise<Paged<GraphqlItems[Q]>> {
    const variables = {
      index: indexName(this.profile.graphqlNamespace, GRAPHQL_QUERY_INDEX_KIND[query]),
      ...(takesProtocols(query) && options.protocols !== undefined && { protocols: options.protocols }),
      body,
    };
    const answer = await this.call(
      {
        method: 'POST',
        path: '/graphql',
        body: {
          operationName: 'Search',
          query: searchQueryText(query, options.selection ?? GRAPHQL_SELECTIONS[query]),
          variables,
        },
        auth: 'jwtOrApiKey',
        idempotent: true,
      },
      z.unknown(),
    );
    try {
      return unwrapGraphqlPage(query, answer, GRAPHQL_ITEM_SCHEMAS[query] as z.ZodType<GraphqlItems[Q]>);
    } catch (error) {
      if (!(error instanceof GraphqlPageError)) throw error;
      if (error.errors.length > 0) {
        const code = error.errors.map((e) => e.extensions?.code).find(isAppErrorCode) ?? 'VALIDATION_FAILED';
        throw new ServiceRequestError(code, `The service says: ${error.message}`, 200);
      }
      throw new ServiceRequestError(
        'INTERNAL',
        `The service answered the GraphQL ${query} search with a shape Copydesk does not understand: ${error.message}`,
        200,
      );
    }
  }

  // ── Copy trades (JWT) ────────────────────────────────────────────────────────────────────

  /** `POST /copy-trades`: the created copy trade. Never retried. */
  async createCopyTrade(body: CopyTradeCreateInput): Promise<CopyTrade> {
    return this.call(
      { method: 'POST', path: '/copy-trades', body, auth: 'jwt', idempotent: false },
      copyTradeSchema,
    );
  }

  /** `PUT /copy-trades/{id}`: a partial update; the answer is the full copy trade. Never retried. */
  async updateCopyTrade(id: string, body: CopyTradeUpdateInput): Promise<CopyTrade> {
    return this.call(
      { method: 'PUT', path: `/copy-trades/${seg(id)}`, body, auth: 'jwt', idempotent: false },
      copyTradeSchema,
    );
  }

  /** `POST /copy-trades/list`: the user's copy trades with pnl, pnl7D, pnl30D (bare or wrapped). */
  async listCopyTrades(body: CopyTradeListBody = {}): Promise<CopyTradeListItem[]> {
    return this.call(
      { method: 'POST', path: '/copy-trades/list', body, auth: 'jwt', idempotent: true },
      bareOrWrapped(copyTradeListItemSchema),
    );
  }

  // ── Copy wallets and withdrawal (JWT) ────────────────────────────────────────────────────

  /** `GET /copy-wallets/list` (bare or wrapped). */
  async listCopyWallets(): Promise<CopyWallet[]> {
    return this.call(
      { method: 'GET', path: '/copy-wallets/list', auth: 'jwt', idempotent: true },
      bareOrWrapped(copyWalletSchema(this.profile.venue)),
    );
  }

  /** `GET /copy-wallets/<venue>-embedded/list`: embedded wallets with pnl24h and totalPnl. */
  async listEmbeddedWallets(): Promise<EmbeddedCopyWallet[]> {
    return this.call(
      { method: 'GET', path: embeddedWalletsPath(this.profile.venue), auth: 'jwt', idempotent: true },
      bareOrWrapped(embeddedCopyWalletSchema(this.profile.venue)),
    );
  }

  /**
   * `POST /embedded-wallets/<venue>/withdraw`. With an `idempotencyKey` the call is sent with
   * `Idempotency-Key` and retried like a read (the service answers the first record again);
   * without one it is never retried, so that a lost answer cannot pay twice.
   */
  async withdraw(body: WithdrawRequest, options: { idempotencyKey?: string } = {}): Promise<Withdrawal> {
    const key = options.idempotencyKey;
    return this.call(
      {
        method: 'POST',
        path: withdrawPath(this.profile.venue),
        body,
        ...(key !== undefined && { headers: { 'idempotency-key': key } }),
        auth: 'jwt',
        idempotent: key !== undefined,
      },
      withdrawalSchema(this.profile.venue),
    );
  }

  /**
   * `GET /embedded-wallets/<venue>/withdraw-fees` (outside the spec, docs/copy-trading-api.md):
   * the deployment's fees and minimum. A deployment without it answers 404 (NOT_FOUND).
   */
  async withdrawFees(): Promise<WithdrawFees> {
    return this.call(
      { method: 'GET', path: withdrawFeesPath(this.profile.venue), auth: 'none', idempotent: true },
      z.object(withdrawFeesSchema.shape),
    );
  }

  // ── Copy positions and activity logs (JWT) ───────────────────────────────────────────────

  /** `POST /copy-positions/page`: filters in the query string, id lists in the optional body. */
  async copyPositionsPage(
    query: CopyPositionsPageQueryInput = {},
    body?: CopyPositionsPageBody,
  ): Promise<Paged<CopyPosition>> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.set(name, String(value));
    }
    const search = params.toString();
    return this.call(
      {
        method: 'POST',
        path: `/copy-positions/page${search ? `?${search}` : ''}`,
        body: body ?? {},
        auth: 'jwt',
        idempotent: true,
      },
      paged(copyPositionSchema),
    );
  }

  /** `GET /copy-positions/{id}/orders`: newest first (bare or wrapped). */
  async copyPositionOrders(id: string): Promise<CopyOrder[]> {
    return this.call(
      { method: 'GET', path: `/copy-positions/${seg(id)}/orders`, auth: 'jwt', idempotent: true },
      bareOrWrapped(copyOrderSchema),
    );
  }

  /** `POST /copy-positions/{id}/close`: closes at the mark (MANUAL). Never retried. */
  async closeCopyPosition(id: string): Promise<CopyPosition> {
    return this.call(
      { method: 'POST', path: `/copy-positions/${seg(id)}/close`, auth: 'jwt', idempotent: false },
      copyPositionSchema,
    );
  }

  /** `POST /copy-positions/{id}/unlink`: stops following without a trade (FORCE_CLOSE). Never retried. */
  async unlinkCopyPosition(id: string): Promise<CopyPosition> {
    return this.call(
      { method: 'POST', path: `/copy-positions/${seg(id)}/unlink`, auth: 'jwt', idempotent: false },
      copyPositionSchema,
    );
  }

  /** `POST /activity-logs/page`: a page of copied actions. */
  async activityLogsPage(body: ActivityLogsPageBodyInput = {}): Promise<Paged<ActivityLog>> {
    return this.call(
      { method: 'POST', path: '/activity-logs/page', body, auth: 'jwt', idempotent: true },
      paged(activityLogSchema),
    );
  }

  // ── The venue feed (outside the spec: docs/venue-feed.md) ───────────────────────────────

  /** `GET /feed/status` (JWT or API key): the feed's state, budget and tracked accounts. */
  async feedStatus(): Promise<FeedStatus> {
    const answer = await this.read('GET', '/feed/status', undefined, feedStatusResponseSchema);
    return answer.data;
  }

  /**
   * `POST /feed/accounts` (JWT): accounts to track or stop tracking; the new status. Adding and
   * removing are idempotent, so the call is retried like a read.
   */
  async feedAccounts(body: FeedAccountsBody): Promise<FeedStatus> {
    const answer = await this.call(
      { method: 'POST', path: '/feed/accounts', body, auth: 'jwt', idempotent: true },
      feedStatusResponseSchema,
    );
    return answer.data;
  }

  // ── Backtests (outside the spec: docs/backtest.md) ──────────────────────────────────────

  /** `POST /{protocol}/back-testing/multiple-order` (JWT or API key): one result per account. */
  async backtest(protocol: string, body: BacktestRequestInput): Promise<BacktestResponse> {
    return this.read('POST', `/${seg(protocol)}/back-testing/multiple-order`, body, backtestResponseSchema);
  }

  /** `POST /{protocol}/back-testing/sweep` (JWT or API key): every combination, best first. */
  async backtestSweep(protocol: string, body: SweepRequestInput): Promise<SweepResponse> {
    return this.read('POST', `/${seg(protocol)}/back-testing/sweep`, body, sweepResponseSchema);
  }

  // ── Prices (outside the spec: docs/service.md, Price candles) ─────────────────────────────

  /** `GET /prices/{protocol}/{indexToken}/candles` (JWT or API key): the token's candles in a range. */
  async candles(protocol: string, indexToken: string, query: CandlesQuery): Promise<CandlesResponse> {
    const search = new URLSearchParams({
      from: String(query.from),
      to: String(query.to),
      interval: query.interval,
    });
    return this.read(
      'GET',
      `/prices/${seg(protocol)}/${seg(indexToken)}/candles?${search.toString()}`,
      undefined,
      candlesResponseSchema,
    );
  }

  // ── Plumbing ─────────────────────────────────────────────────────────────────────────────

  /** A read that takes a JWT or an API key. */
  private read<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    return this.call(
      { method, path, ...(body !== undefined && { body }), auth: 'jwtOrApiKey', idempotent: true },
      schema,
    );
  }

  /**
   * Adds the call's credentials (or fails before sending), then sends, retrying idempotent calls.
   * A 401 to a call that carried a credential is answered once by renewing that credential and
   * sending again: the service refuses before acting, so even a write is safe to send twice.
   */
  private call<S extends z.ZodType>(call: Call, schema: S): Promise<z.output<S>> {
    return this.exchange(call, (spec) => requestJson(this.http, spec, schema));
  }

  /** call with the way the answer is read left to `receive` (parsed and checked, or raw bytes). */
  private async exchange<T>(call: Call, receive: (spec: RequestSpec) => Promise<T>): Promise<T> {
    const send = async (renewed: boolean): Promise<T> => {
      const { headers, carried } = await this.credentialHeaders(call);
      const spec: RequestSpec = {
        method: call.method,
        path: call.path,
        ...(call.body !== undefined && { body: call.body }),
        headers: { ...call.headers, ...headers },
      };
      const once = () => receive(spec);
      const tried = () => (call.idempotent ? withRetry(once, this.retry, this.sleep) : once());
      try {
        // A service preparing its data answers 503 PREPARING before acting: waited out, any call.
        return await waitWhilePreparing(tried, this.preparing, this.sleep, this.now);
      } catch (error) {
        const refused = error instanceof ServiceRequestError && error.status === 401;
        if (!refused || renewed || carried === null || !this.credentials.renew) throw error;
        const fresh = await this.credentials.renew(carried);
        if (fresh === null) throw error;
        return send(true);
      }
    };
    return send(false);
  }

  /**
   * The credential header of a call, and which credential it is. JWT-or-key calls send the API
   * key when there is one (keys do not expire), else the token; sending both would make an
   * expired token hide a good key. A call that needs an API key the profile lacks asks for one
   * first (the local profile provisions its own).
   */
  private async credentialHeaders(
    call: Call,
  ): Promise<{ headers: Record<string, string>; carried: CredentialKind | null }> {
    if (call.auth === 'none') return { headers: {}, carried: null };
    const what = `${call.method} ${call.path.split('?')[0]}`;
    const token = call.auth === 'apiKey' ? null : nonEmpty(await this.credentials.accessToken());
    let key = call.auth === 'jwt' ? null : nonEmpty(await this.credentials.apiKey());
    // A call that needs a key, or takes one and has no token either, asks for a key first: the
    // local profile provisions its own on first start, and a read made meanwhile (the leaderboard
    // opens at once, logged out) waits for it instead of answering "not logged in".
    const wantsKey = call.auth === 'apiKey' || (call.auth === 'jwtOrApiKey' && token === null);
    if (wantsKey && key === null && this.credentials.renew)
      key = nonEmpty(await this.credentials.renew('apiKey'));
    switch (call.auth) {
      case 'jwt':
        if (token) return { headers: { authorization: token }, carried: 'jwt' };
        throw new ServiceRequestError(
          'NOT_LOGGED_IN',
          `You are not logged in: log in with your wallet to use ${what}.`,
          null,
        );
      case 'apiKey':
        if (key) return { headers: { 'x-api-key': key }, carried: 'apiKey' };
        throw new ServiceRequestError(
          'UNAUTHORIZED',
          `${what} needs an API key: add one to the service profile ${this.profile.name} in Settings.`,
          null,
        );
      case 'jwtOrApiKey':
        if (key) return { headers: { 'x-api-key': key }, carried: 'apiKey' };
        if (token) return { headers: { authorization: token }, carried: 'jwt' };
        throw new ServiceRequestError(
          'NOT_LOGGED_IN',
          `You are not logged in: log in with your wallet, or add an API key to the service profile ${this.profile.name}, to use ${what}.`,
          null,
        );
    }
  }
}

const nonEmpty = (value: string | null): string | null => (value && value.trim() !== '' ? value : null);
