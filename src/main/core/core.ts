import { join } from 'node:path';
import {
  DEFAULT_SERVICE_NAME,
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_VENUE,
  LOCAL_PROFILE_ID,
  type ServiceProfile,
} from '../../shared/profile';
import type { Result } from '../../shared/result';
import type { AppInfo } from '../../shared/ipc/contract';
import { ServiceClient } from './client/service-client';
import { dispatch } from './dispatch';
import { CoreError } from './errors';
import { CoreEvents } from './events';
import { createHandlers } from './handlers/handlers';
import { LocalServiceProcess } from './local-service/service-process';
import type { SecretStore } from './secrets/secret-store';
import { SessionManager } from './session';
import { Wallet } from './wallet/wallet';

export interface CoreOptions {
  dataDir: string;
  shell: AppInfo['shell'];
  secrets: SecretStore;
  appVersion: string;
  ephemeralKeychain: boolean;
  /** The service to talk to; omitted = start the embedded local service. */
  remoteProfile?: ServiceProfile;
  /** How to run the local service's Node (Electron passes its own binary). */
  serviceExecPath?: string;
  serviceEnv?: NodeJS.ProcessEnv;
  /** The world a new local service database starts with (default: the demo world). */
  world?: 'demo' | 'fixture' | 'empty';
  /** Keep the local market moving (default: true). */
  live?: boolean;
}

/** The desktop core: plain Node, hosted by the Electron shell or the web shell. */
export interface Core {
  invoke(channel: unknown, request: unknown): Promise<Result<unknown>>;
  events: CoreEvents;
  profile(): ServiceProfile;
  /** Resolves when the service answers (the local one may be seeding its world first). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the core: the local service unless a remote profile is given, the wallet, the handlers. */
export async function startCore(options: CoreOptions): Promise<Core> {
  const events = new CoreEvents();
  const localService = options.remoteProfile
    ? null
    : new LocalServiceProcess({
        dbPath: join(options.dataDir, 'service', 'service.db'),
        events,
        ...(options.serviceExecPath && { execPath: options.serviceExecPath }),
        ...(options.serviceEnv && { env: options.serviceEnv }),
        args: serviceArgs(options),
      });
  // The shells open at once; the local service may still be preparing its world (the first
  // start seeds the demo world), and calls that need it wait for it.
  let profile: ServiceProfile = options.remoteProfile ?? localProfile('');
  const ready: Promise<ServiceClient> = (
    localService
      ? localService.start().then((url) => (profile = localProfile(url)))
      : Promise.resolve(profile)
  ).then((p) => new ServiceClient(p));
  ready.catch(() => undefined); // the failure is reported as a service:state event and to each caller
  const client = () =>
    ready.catch((error: Error) =>
      Promise.reject(new CoreError('OFFLINE', `The local service did not start: ${error.message}`)),
    );
  const wallet = new Wallet(options.secrets);
  const session = new SessionManager(profile.id, client, wallet, options.secrets);
  const handlers = createHandlers({
    wallet,
    session,
    events,
    client,
    appInfo: () => ({
      appVersion: options.appVersion,
      shell: options.shell,
      dataDir: options.dataDir,
      profile: { id: profile.id, name: profile.name, baseUrl: profile.baseUrl, kind: profile.kind },
      ephemeralKeychain: options.ephemeralKeychain,
      versions: {
        node: process.versions.node,
        ...(process.versions.electron && { electron: process.versions.electron }),
      },
    }),
  });
  return {
    invoke: (channel, request) => dispatch(handlers, channel, request),
    events,
    profile: () => profile,
    ready: () => ready.then(() => undefined),
    close: async () => localService?.stop(),
  };
}

/** The local service's flags for the world and the live market the core was asked for. */
function serviceArgs(options: CoreOptions): string[] {
  const world = options.world ?? 'demo';
  return [
    ...(world === 'demo' ? ['--demo'] : world === 'empty' ? ['--empty'] : []),
    ...(options.live === false ? [] : ['--live']),
  ];
}

/** The default profile: the embedded local service at the URL it started on. */
export function localProfile(baseUrl: string): ServiceProfile {
  return {
    id: LOCAL_PROFILE_ID,
    name: 'Local service',
    kind: 'local',
    baseUrl,
    serviceName: DEFAULT_SERVICE_NAME,
    venue: DEFAULT_VENUE,
    graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
  };
}
