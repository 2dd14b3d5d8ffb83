import type { ServiceConfig } from '../config';
import type { ServiceDb } from '../store/database';
import type { UserEvents } from '../events/user-events';
import type { SearchBudget } from './search-budget';

/** What every route needs: the store, the configuration, the token secret and the event bus. */
export interface ServiceContext {
  db: ServiceDb;
  config: ServiceConfig;
  secret: string;
  /** Events for users' terminals (the `/events` stream). */
  events: UserEvents;
  /** Each caller's budget of search time (statistics filters, GraphQL). */
  searchBudget: SearchBudget;
}
