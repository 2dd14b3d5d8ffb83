import { DEFAULT_GRAPHQL_NAMESPACE, DEFAULT_SERVICE_NAME, DEFAULT_VENUE } from '../shared/profile';

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
  /** The service's clock; tests and `--now` replace it. */
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
    now: () => new Date(),
    ...overrides,
  };
}
