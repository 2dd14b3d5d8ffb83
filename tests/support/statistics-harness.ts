import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channels, type ChannelResponse, type EventPayload } from '../../src/shared';
import type { ServiceProfile } from '../../src/shared/profile';
import { openCacheDatabase } from '../../src/main/core/cache/cache-db';
import { Connectivity } from '../../src/main/core/cache/connectivity';
import { ReadThrough } from '../../src/main/core/cache/read-through';
import { ResponseCache } from '../../src/main/core/cache/response-cache';
import {
  StatisticsDatasets,
  type StatisticsDatasetsOptions,
} from '../../src/main/core/datasets/statistics-datasets';
import { ServiceClient, type ServiceClientOptions } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { CoreEvents } from '../../src/main/core/events';
import { createStatisticsHandlers, type StatisticsChannel } from '../../src/main/core/handlers/statistics';
import type { RunningService } from './service';

/** The statistics handlers of a core wired to a running service, without the rest of the core. */
export interface StatisticsHarness {
  /** Validates the request with the contract's schema (as the dispatcher does), then runs the handler. */
  invoke<C extends StatisticsChannel>(channel: C, request: unknown): Promise<ChannelResponse<C>>;
  events: CoreEvents;
  datasets: StatisticsDatasets;
  /** Every `download:progress` event so far. */
  progress: EventPayload<'download:progress'>[];
  /** The client the handlers use (wrapped, when the options wrap it). */
  client(): Promise<ServiceClient>;
  /** Points the client at another URL (a restarted service). */
  setUrl(url: string): void;
  profileId: string;
  dir: string;
  /** Closes the datasets (the worker) and the cache; `keepFiles` leaves the folder for a reopen. */
  close(keepFiles?: boolean): Promise<void>;
}

export interface HarnessOptions {
  apiKey: string;
  datasets?: StatisticsDatasetsOptions;
  client?: Omit<ServiceClientOptions, 'credentials'>;
  /** Reuse a folder (its datasets file) from an earlier harness. */
  dir?: string;
  profileId?: string;
  /** Wraps the client the handlers get (to interrupt a download at a chosen call). */
  wrapClient?: (client: ServiceClient) => ServiceClient;
}

/** A profile for the running service. */
export function profileFor(svc: RunningService, url = svc.url): ServiceProfile {
  const config = svc.service.config;
  return {
    id: 'test',
    name: 'Test service',
    kind: 'local',
    baseUrl: url,
    serviceName: config.serviceName,
    venue: config.venue,
    graphqlNamespace: config.graphqlNamespace,
  };
}

/** The statistics handlers over a real service, their own cache and datasets files. */
export function statisticsHarness(profile: ServiceProfile, options: HarnessOptions): StatisticsHarness {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'copydesk-stats-'));
  const profileId = options.profileId ?? 'test';
  const events = new CoreEvents();
  const db = openCacheDatabase(join(dir, 'core.db'));
  const cache = new ResponseCache(db);
  const connectivity = new Connectivity(events, profileId);
  const reads = new ReadThrough({ cache, events, connectivity, profileId: () => profileId });
  const datasets = new StatisticsDatasets(join(dir, 'datasets.db'), options.datasets);
  let url = profile.baseUrl;
  const client = () => {
    const made = new ServiceClient(
      { ...profile, baseUrl: url },
      {
        ...options.client,
        credentials: staticCredentials({ apiKey: options.apiKey }),
      },
    );
    return Promise.resolve(options.wrapClient ? options.wrapClient(made) : made);
  };
  const handlers = createStatisticsHandlers({ client, reads, events, datasets, profileId: () => profileId });
  const progress: EventPayload<'download:progress'>[] = [];
  events.on('download:progress', (state) => progress.push(state));
  return {
    invoke: async (channel, request) => {
      const parsed = channels[channel].request.parse(request ?? {});
      const handler = handlers[channel] as (req: unknown) => Promise<unknown>;
      return (await handler(parsed)) as never;
    },
    events,
    datasets,
    progress,
    client,
    setUrl: (next) => (url = next),
    profileId,
    dir,
    close: async (keepFiles = false) => {
      await datasets.close();
      db.close();
      if (!keepFiles) rmSync(dir, { recursive: true, force: true });
    },
  };
}
