import type { z } from 'zod';
import type { Channel, ChannelResponse, channels } from '../../../shared';
import type { AppInfo } from '../../../shared/ipc/contract';
import type { DataSources } from '../../../shared/ipc/schemas/settings';
import type { Connectivity } from '../cache/connectivity';
import type { ReadThrough } from '../cache/read-through';
import type { ResponseCache } from '../cache/response-cache';
import type { WithdrawalLog } from '../cache/withdrawal-log';
import type { CoreEvents } from '../events';
import type { PickSavePath } from '../export/exports-folder';
import type { ProfileManager } from '../profiles/profile-manager';
import type { SettingsStore } from '../settings/settings-store';
import type { Wallet } from '../wallet/wallet';
import type { StatisticsDatasets } from '../datasets';
import { createAccountHandlers } from './account';
import { createBacktestHandlers } from './backtest';
import { createPriceHandlers } from './prices';
import { createCopyTradingHandlers } from './copy-trading';
import { createExportHandlers } from './export';
import { createFeedHandlers } from './feed';
import { createLiveHandlers } from './live';
import { createProfileHandlers } from './profiles';
import { createSettingsHandlers } from './settings';
import { createStatisticsHandlers } from './statistics';
import { createWalletHandlers } from './wallets';
import { createWriteGuard, type WriteGuard } from './write-guard';

/** What the handlers work with. */
export interface HandlerDeps {
  wallet: Wallet;
  profiles: ProfileManager;
  events: CoreEvents;
  reads: ReadThrough;
  cache: ResponseCache;
  connectivity: Connectivity;
  settings: SettingsStore;
  /**
   * Restarts the local service with the flags of these data sources (resolves once it is ready);
   * null when this core runs no local service.
   */
  applyDataSources: ((sources: DataSources) => Promise<void>) | null;
  withdrawals: WithdrawalLog;
  /** The downloaded statistics datasets (offline leaderboards). */
  datasets: StatisticsDatasets;
  /** Where an export goes (a save dialog in Electron, the exports folder in the web shell). */
  pickSavePath: PickSavePath;
  appInfo: () => AppInfo;
  /** The folder of the core's caches, as `cache:stats` shows it. */
  cachePath: string;
  /** Forgets the cached answers that belong to the logged-in user, of one profile or all. */
  forgetUserData: (profileId?: string) => void;
}

/** The handlers' view of the deps: plus the guard every write goes through. */
export type DomainDeps = HandlerDeps & { write: WriteGuard };

type Handler<C extends Channel> = (
  request: z.output<(typeof channels)[C]['request']>,
) => Promise<ChannelResponse<C>>;
export type Handlers = { [C in Channel]: Handler<C> };

/** One handler per channel, from one file per domain; requests arrive validated by the dispatcher. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const active = () => deps.profiles.active();
  const domain: DomainDeps = {
    ...deps,
    write: createWriteGuard(deps.connectivity, () => `The service ${active().profile.name}`),
  };
  return {
    ...createAccountHandlers(domain),
    ...createStatisticsHandlers({
      client: () => active().serviceClient(),
      reads: deps.reads,
      events: deps.events,
      datasets: deps.datasets,
      profileId: () => active().id,
    }),
    ...createLiveHandlers(domain),
    ...createCopyTradingHandlers(domain),
    ...createWalletHandlers(domain),
    ...createProfileHandlers(domain),
    ...createSettingsHandlers(domain),
    ...createExportHandlers(domain),
    ...createFeedHandlers(domain),
    ...createBacktestHandlers({ client: () => active().serviceClient(), events: deps.events }),
    ...createPriceHandlers({ client: () => active().serviceClient() }),
  };
}
