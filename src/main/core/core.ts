import { join } from 'node:path';
import { lockDataDir, type DataDirLock } from '../../node/data-dir-lock';
import { LOCAL_PROFILE_ID, type ServiceProfile } from '../../shared/profile';
import type { Result } from '../../shared/result';
import type { AppInfo } from '../../shared/ipc/contract';
import type { DataSources } from '../../shared/ipc/schemas/settings';
import { Connectivity } from './cache/connectivity';
import { KeyValueTable } from './cache/key-value';
import { ReadThrough } from './cache/read-through';
import { ResponseCache } from './cache/response-cache';
import { USER_SCOPED_CHANNELS } from './cache/user-scoped';
import { WithdrawalLog } from './cache/withdrawal-log';
import type { ServiceClientOptions } from './client/service-client';
import { CopyActivityFeed } from './copy-activity-feed';
import { openCoreFiles } from './core-files';
import { dispatch } from './dispatch';
import { CoreEvents } from './events';
import { exportsFolderPicker, type PickSavePath } from './export/exports-folder';
import { createHandlers } from './handlers/handlers';
import { LocalServiceProcess, type RestartPolicy } from './local-service/service-process';
import { serviceArgsFor } from './local-service/data-sources';
import { logDirOf } from '../../node/data-dir';
import { ProfileManager, type LocalServiceLink } from './profiles/profile-manager';
import { ProfileStore } from './profiles/profile-store';
import type { SecretStore } from './secrets/secret-store';
import { SettingsStore } from './settings/settings-store';
import { Wallet } from './wallet/wallet';

export { localProfile } from './profiles/profile-manager';

export interface CoreOptions {
  dataDir: string;
  shell: AppInfo['shell'];
  secrets: SecretStore;
  appVersion: string;
  ephemeralKeychain: boolean;
  /** A remote profile to add and make active; with it the core starts no local service. */
  remoteProfile?: ServiceProfile;
  /** How to run the local service's Node (Electron passes its own binary). */
  serviceExecPath?: string;
  serviceEnv?: NodeJS.ProcessEnv;
  /**
   * The world a new local service database starts with (default: the demo world) when the demo
   * market is on (Settings → Data sources); with it off a new database starts empty.
   */
  world?: 'demo' | 'fixture' | 'empty';
  /** Keep the local market moving while the demo market is on (default: true). */
  live?: boolean;
  /** Where `export:csv` writes: the shell's choice. Default: `<dataDir>/exports/` (the web shell's). */
  pickSavePath?: PickSavePath;
  /** Timings, for tests: the local service's restarts, the offline probe, the client's retries. */
  tuning?: {
    restart?: Partial<RestartPolicy>;
    probeIntervalMs?: number;
    client?: Omit<ServiceClientOptions, 'credentials'>;
    eventStream?: { backoff?: { baseMs: number; maxMs: number }; idleTimeoutMs?: number };
  };
}

/** The desktop core: plain Node, hosted by the Electron shell or the web shell. */
export interface Core {
  invoke(channel: unknown, request: unknown): Promise<Result<unknown>>;
  events: CoreEvents;
  /** The active profile. */
  profile(): ServiceProfile;
  /**
   * Resolves when the local service is ready: listening and done preparing its data (a first start
   * answers tokens and login before that: docs/core.md); at once without one.
   */
  ready(): Promise<void>;
  /** The local service's process id while it runs (diagnostics and tests). */
  localServicePid(): number | null;
  /** The flags the local service runs with after its port and database (diagnostics and tests). */
  localServiceArgs(): readonly string[] | null;
  close(): Promise<void>;
}

/**
 * Starts the core: its cache database, the local service (unless a remote profile is given), the
 * profiles with their sessions, the event stream and the handlers. One core per data folder:
 * throws AlreadyRunningError when another process runs one on `dataDir`.
 */
export async function startCore(options: CoreOptions): Promise<Core> {
  const lock = lockDataDir(options.dataDir);
  try {
    return await startLockedCore(options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startLockedCore(options: CoreOptions, lock: DataDirLock): Promise<Core> {
  const events = new CoreEvents();
  const cacheDir = join(options.dataDir, 'cache');
  const files = openCoreFiles(options.dataDir);
  // The service logs beside the core, in the folder the About panel names.
  const serviceArgs = (sources: DataSources) => [
    ...serviceArgsFor(sources, options),
    '--log-dir',
    logDirOf(options.dataDir),
  ];
  const { cache: db, datasets } = files;
  const table = new KeyValueTable(db);
  const cache = new ResponseCache(db);
  const settings = new SettingsStore(table);
  const withdrawals = new WithdrawalLog(files.withdrawals);

  const localService = options.remoteProfile
    ? null
    : new LocalServiceProcess({
        dbPath: join(options.dataDir, 'service', 'service.db'),
        events,
        ...(options.serviceExecPath && { execPath: options.serviceExecPath }),
        ...(options.serviceEnv && { env: options.serviceEnv }),
        ...(options.tuning?.restart && { restart: options.tuning.restart }),
        // The user's data sources (Settings → Data sources) choose the flags.
        args: serviceArgs(settings.get().dataSources),
      });
  // The shells open at once; the local service may still be preparing its world (the first
  // start seeds the demo world), and calls that need it wait for it.
  const localReady = localService?.start() ?? null;
  localReady?.catch(() => undefined); // reported as a service:state event and to each caller
  const local: LocalServiceLink | null = localService
    ? {
        ready: () => localService.ready(),
        url: () => localService.url,
        createApiKey: () => localService.createApiKey(),
      }
    : null;
  // Data sources changed: the local service restarts with their flags, one restart at a time.
  // Its database, and with it the user's session and API key, stays; only its port changes,
  // which the local profile follows (calls made meanwhile wait for the new start).
  let applying: Promise<unknown> = Promise.resolve();
  const applyDataSources = localService
    ? (sources: DataSources): Promise<void> => {
        const run = applying.then(async () => {
          const args = serviceArgs(sources);
          if (args.join(' ') === localService.currentArgs.join(' ')) return;
          await localService.restart(args, 'Restarting the local service with the new data sources…');
        });
        applying = run.catch(() => undefined);
        return run;
      }
    : null;

  const wallet = new Wallet(options.secrets);
  const profiles: ProfileManager = new ProfileManager({
    store: new ProfileStore(table),
    wallet,
    secrets: options.secrets,
    local,
    ...(options.remoteProfile && { initialRemote: options.remoteProfile }),
    ...(options.tuning?.client && { clientOptions: options.tuning.client }),
    onSessionChange: (status) => {
      events.emit('session:changed', status);
      void feed.sync();
    },
    onProfileReset: (profileId, deleted) => {
      cache.clear(profileId);
      void datasets.clear(profileId);
      if (deleted) withdrawals.clear(profileId);
    },
    onActiveChange: (context) => {
      connectivity.switchProfile(context.id);
      void feed.sync();
    },
    onListChange: (view) => events.emit('profile:changed', view),
  });
  const connectivity = new Connectivity(events, profiles.active().id, undefined, {
    probe: async () => (await profiles.active().serviceClient()).health(),
    ...(options.tuning?.probeIntervalMs !== undefined && { probeIntervalMs: options.tuning.probeIntervalMs }),
  });
  const reads = new ReadThrough({
    cache,
    events,
    connectivity,
    profileId: () => profiles.active().id,
    afterWrite: () => cache.evictTo(settings.cacheLimitBytes()),
  });
  const feed = new CopyActivityFeed({
    profiles,
    events,
    withdrawals,
    connectivity,
    ...(options.tuning?.eventStream && { stream: options.tuning.eventStream }),
  });
  const activeProfile = (): ServiceProfile => {
    const id = profiles.active().id;
    return profiles.profiles().find((p) => p.id === id) ?? profiles.active().profile;
  };

  const handlers = createHandlers({
    wallet,
    profiles,
    events,
    reads,
    cache,
    connectivity,
    settings,
    applyDataSources,
    withdrawals,
    datasets,
    pickSavePath: options.pickSavePath ?? exportsFolderPicker(options.dataDir),
    cachePath: cacheDir,
    forgetUserData: (profileId) => {
      for (const id of profileId === undefined ? profiles.ids() : [profileId])
        cache.clearChannels(id, USER_SCOPED_CHANNELS);
    },
    appInfo: () => {
      const profile = activeProfile();
      return {
        appVersion: options.appVersion,
        shell: options.shell,
        dataDir: options.dataDir,
        profile: { id: profile.id, name: profile.name, baseUrl: profile.baseUrl, kind: profile.kind },
        ephemeralKeychain: options.ephemeralKeychain,
        damagedFiles: files.damaged,
        versions: {
          node: process.versions.node,
          ...(process.versions.electron && { electron: process.versions.electron }),
        },
      };
    },
  });

  void connectivity.probeOnce();
  void feed.sync();
  // The local profile makes itself an API key on first start, so search-after works there.
  void localReady?.then(
    () =>
      profiles
        .context(LOCAL_PROFILE_ID)
        .ensureApiKey()
        .catch((error: unknown) =>
          console.error(`[copydesk core] the local API key is not available: ${(error as Error).message}`),
        ),
    () => undefined, // a service that did not start is reported already
  );

  let closing: Promise<void> | null = null;
  return {
    invoke: (channel, request) => dispatch(handlers, channel, request),
    events,
    profile: activeProfile,
    ready: async () => {
      await localService?.ready();
      await localService?.prepared();
    },
    localServicePid: () => localService?.pid ?? null,
    localServiceArgs: () => localService?.currentArgs ?? null,
    close: () =>
      (closing ??= (async () => {
        connectivity.close();
        await feed.close();
        await profiles.settle();
        await Promise.all([localService?.stop(), datasets.close()]);
        db.close();
        files.withdrawals.close();
        lock.release();
      })()),
  };
}
