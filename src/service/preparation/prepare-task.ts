import type { PreparingProgress } from '../../shared/api/preparing';
import type { ServiceConfig } from '../config';

/** What the preparing worker is given: the configuration without its functions (not cloneable). */
export interface PrepareTask {
  config: Omit<ServiceConfig, 'onProgress' | 'now' | 'searchClock'>;
}

/** What it says back: progress as it goes, then done or failed, once. */
export type PrepareMessage =
  { kind: 'progress'; progress: PreparingProgress } | { kind: 'done' } | { kind: 'failed'; message: string };

/** The task of `config`: every value but the functions, which a worker cannot be sent. */
export function prepareTaskOf(config: ServiceConfig): PrepareTask {
  const { onProgress: _onProgress, now: _now, searchClock: _searchClock, ...plain } = config;
  return { config: plain };
}
