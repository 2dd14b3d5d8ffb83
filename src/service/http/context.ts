import type { ServiceConfig } from '../config';
import type { ServiceDb } from '../store/database';

/** What every route needs: the store, the configuration and the token secret. */
export interface ServiceContext {
  db: ServiceDb;
  config: ServiceConfig;
  secret: string;
}
