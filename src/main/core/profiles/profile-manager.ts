import {
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_SERVICE_NAME,
  DEFAULT_VENUE,
  LOCAL_PROFILE_ID,
  type ServiceProfile,
} from '../../../shared/profile';
import type { AuthStatus } from '../../../shared/ipc/contract';
import type { Profiles, ProfileView } from '../../../shared/ipc/schemas/settings';
import type { Credentials, CredentialKind } from '../client/credentials';
import { ServiceClient, type ServiceClientOptions } from '../client/service-client';
import { CoreError } from '../errors';
import type { SecretStore } from '../secrets/secret-store';
import { SessionManager, sessionAccount } from '../session';
import type { Wallet } from '../wallet/wallet';
import { apiKeyAccount, type ProfileStore } from './profile-store';

/** What the profiles need of the local service process. */
export interface LocalServiceLink {
  /**
   * Resolves with the URL once the latest start succeeded (the first, or a restart with other
   * data sources: calls made meanwhile wait for its new port); rejects when it failed.
   */
  ready(): Promise<string>;
  /** Its URL now (a restart picks a new free port). */
  url(): string | null;
  /** Creates an API key for its database (`create-api-key --db FILE`). */
  createApiKey(): Promise<string>;
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

interface ContextDeps {
  wallet: Wallet;
  secrets: SecretStore;
  local: LocalServiceLink | null;
  clientOptions: Omit<ServiceClientOptions, 'credentials'>;
}

/**
 * One profile at work: its client, its own session (token in the keychain under the profile id)
 * and its API key, which the client reads at each call.
 */
export class ProfileContext {
  readonly session: SessionManager;
  private client: ServiceClient | null = null;
  /** undefined until read from the keychain. */
  private key: string | null | undefined = undefined;
  private provisioning: Promise<string | null> | null = null;

  readonly credentials: Credentials = {
    accessToken: () => this.session.currentToken(),
    apiKey: () => this.apiKey(),
    renew: (kind: CredentialKind) => (kind === 'jwt' ? this.session.renew() : this.provisionApiKey()),
  };

  constructor(
    public profile: ServiceProfile,
    private readonly deps: ContextDeps,
  ) {
    this.session = new SessionManager(profile.id, () => this.serviceClient(), deps.wallet, deps.secrets);
  }

  get id(): string {
    return this.profile.id;
  }

  private get isLocal(): boolean {
    return this.profile.id === LOCAL_PROFILE_ID;
  }

  /** The client of this profile; for the local one, once the service runs, at its current URL. */
  async serviceClient(): Promise<ServiceClient> {
    if (this.isLocal) {
      const { local } = this.deps;
      if (!local) throw new CoreError('OFFLINE', 'The local service is not running in this session.');
      const url = await local.ready().catch((error: Error) => {
        throw new CoreError('OFFLINE', `The local service did not start: ${error.message}`);
      });
      const now = local.url() ?? url;
      if (now !== this.profile.baseUrl) this.profile = { ...this.profile, baseUrl: now };
    }
    if (this.client?.profile !== this.profile)
      this.client = new ServiceClient(this.profile, {
        ...this.deps.clientOptions,
        credentials: this.credentials,
      });
    return this.client;
  }

  /** The profile's API key from the keychain (read once, then kept in memory). */
  async apiKey(): Promise<string | null> {
    if (this.key === undefined) this.key = await this.deps.secrets.get(apiKeyAccount(this.id));
    return this.key;
  }

  async hasApiKey(): Promise<boolean> {
    return (await this.apiKey()) !== null;
  }

  /** Stores a new API key, or removes it (`null`). */
  async setApiKey(value: string | null): Promise<void> {
    if (value === null) await this.deps.secrets.delete(apiKeyAccount(this.id));
    else await this.deps.secrets.set(apiKeyAccount(this.id), value);
    this.key = value;
  }

  /**
   * The local profile makes itself an API key with the service's command line, so that the
   * API-key-only endpoints (search-after) work on a fresh machine; a remote profile cannot.
   * Also called when the service refused the stored key (a new service database).
   */
  provisionApiKey(): Promise<string | null> {
    const { local } = this.deps;
    if (!this.isLocal || !local) return Promise.resolve(null);
    this.provisioning ??= (async () => {
      try {
        await local.ready();
        const key = await local.createApiKey();
        await this.setApiKey(key);
        return key;
      } catch (error) {
        console.error(
          `[copydesk core] could not create an API key for the local service: ${(error as Error).message}`,
        );
        return null;
      } finally {
        this.provisioning = null;
      }
    })();
    return this.provisioning;
  }

  /** Provisions the local profile's key when the keychain has none (first start). */
  async ensureApiKey(): Promise<void> {
    if (this.isLocal && (await this.apiKey()) === null) await this.provisionApiKey();
  }

  /** Waits for a key being provisioned (core shutdown). */
  async settle(): Promise<void> {
    await this.provisioning?.catch(() => undefined);
  }
}

export interface ProfileManagerDeps {
  store: ProfileStore;
  wallet: Wallet;
  secrets: SecretStore;
  /** The local service, or null when this core runs without one (a remote profile only). */
  local: LocalServiceLink | null;
  /** A profile to add (or update) and make active at start. */
  initialRemote?: ServiceProfile;
  clientOptions?: Omit<ServiceClientOptions, 'credentials'>;
  /** The active profile's session changed (login, re-login, logout). */
  onSessionChange: (status: AuthStatus) => void;
  /** A profile's data must go: it was deleted, or now points at another deployment. */
  onProfileReset: (profileId: string, deleted: boolean) => void;
  /** Another profile became active, or the active one was changed. */
  onActiveChange: (context: ProfileContext) => void;
  /** The list or the active profile changed. */
  onListChange: (profiles: Profiles) => void;
}

/**
 * The service profiles (docs/api.md, Service profile): the local service, always there and
 * active by default, and any number of remote deployments saved by the user. Each profile keeps
 * its own client, session, API key and cached answers; switching takes effect at once.
 */
export class ProfileManager {
  private readonly contexts = new Map<string, ProfileContext>();
  private activeId: string;

  constructor(private readonly deps: ProfileManagerDeps) {
    const { store, initialRemote } = deps;
    if (initialRemote) {
      store.upsert(initialRemote);
      store.setActiveId(initialRemote.id);
    }
    const saved = store.activeId();
    const ids = this.profiles().map((p) => p.id);
    this.activeId = saved !== null && ids.includes(saved) ? saved : (ids[0] ?? LOCAL_PROFILE_ID);
  }

  /** Every profile: the local one first (when this core runs it), then the saved remotes. */
  profiles(): ServiceProfile[] {
    const local = this.deps.local ? [localProfile(this.deps.local.url() ?? '')] : [];
    return [...local, ...this.deps.store.remotes()];
  }

  /** The active profile's context. */
  active(): ProfileContext {
    return this.context(this.activeId);
  }

  /** The context of a profile, made on first use. */
  context(id: string): ProfileContext {
    let context = this.contexts.get(id);
    if (!context) {
      const profile = this.profiles().find((p) => p.id === id);
      if (!profile) throw new CoreError('NOT_FOUND', `There is no service profile "${id}".`);
      context = new ProfileContext(profile, {
        wallet: this.deps.wallet,
        secrets: this.deps.secrets,
        local: this.deps.local,
        clientOptions: this.deps.clientOptions ?? {},
      });
      context.session.onChange((status) => {
        if (this.activeId === id) this.deps.onSessionChange(status);
      });
      this.contexts.set(id, context);
    }
    return context;
  }

  /** The list as the renderer sees it: `hasApiKey`, never the key. */
  async view(): Promise<Profiles> {
    const profiles: ProfileView[] = [];
    for (const profile of this.profiles()) {
      const context = this.contexts.get(profile.id);
      const hasApiKey = context
        ? await context.hasApiKey()
        : (await this.deps.secrets.get(apiKeyAccount(profile.id))) !== null;
      profiles.push({ ...profile, hasApiKey });
    }
    return { profiles, activeId: this.activeId };
  }

  /** Adds or replaces a remote profile; `apiKey`: a new key, null to remove it, undefined to keep it. */
  async save(profile: ServiceProfile, apiKey: string | null | undefined): Promise<Profiles> {
    if (profile.id === LOCAL_PROFILE_ID || profile.kind === 'local') {
      throw new CoreError(
        'VALIDATION_FAILED',
        `profile is managed by Copydesk when it is the local service; save a remote profile (kind "remote") with an id other than "${LOCAL_PROFILE_ID}"`,
      );
    }
    const problem = baseUrlProblem(profile.baseUrl);
    if (problem) throw new CoreError('VALIDATION_FAILED', `profile.baseUrl ${problem}`);
    const before = this.deps.store.remotes().find((p) => p.id === profile.id);
    const moved = before !== undefined && !sameDeployment(before, profile);
    this.deps.store.upsert(profile);
    const context = this.contexts.get(profile.id);
    if (moved) {
      // Another deployment under the same id: its token, cache and client are not this one's.
      this.contexts.delete(profile.id);
      await this.deps.secrets.delete(sessionAccount(profile.id));
      this.deps.onProfileReset(profile.id, false);
    } else if (context) {
      context.profile = profile;
    }
    // An API key goes only to the server it was given for: a new base URL drops it unless the
    // same save gives one again (else an edited URL would send the old key to another host).
    if (apiKey !== undefined) await this.context(profile.id).setApiKey(apiKey);
    else if (before !== undefined && before.baseUrl !== profile.baseUrl)
      await this.context(profile.id).setApiKey(null);
    if (profile.id === this.activeId) this.deps.onActiveChange(this.active());
    return this.announce();
  }

  /** Deletes a remote profile with its key, session and cached data; never the active or the local one. */
  async delete(id: string): Promise<Profiles> {
    if (id === LOCAL_PROFILE_ID)
      throw new CoreError('CONFLICT', 'The local service profile cannot be deleted; it is always there.');
    if (id === this.activeId)
      throw new CoreError(
        'CONFLICT',
        `"${id}" is the active profile: switch to another profile before deleting it.`,
      );
    if (!this.deps.store.remotes().some((p) => p.id === id))
      throw new CoreError('NOT_FOUND', `There is no service profile "${id}".`);
    this.deps.store.remove(id);
    this.contexts.delete(id);
    await this.deps.secrets.delete(apiKeyAccount(id));
    await this.deps.secrets.delete(sessionAccount(id));
    this.deps.onProfileReset(id, true);
    return this.announce();
  }

  /** Makes a profile active at once: its own client, session and cache from the next call on. */
  async switch(id: string): Promise<Profiles> {
    const context = this.context(id); // NOT_FOUND for an unknown id
    if (id !== this.activeId) {
      this.activeId = id;
      this.deps.store.setActiveId(id);
      this.deps.onActiveChange(context);
      this.deps.onSessionChange(await context.session.status());
    }
    return this.announce();
  }

  /** Every profile id, for what concerns them all (the wallet's deletion ends every session). */
  ids(): string[] {
    return this.profiles().map((p) => p.id);
  }

  /** Waits for background work of every profile (core shutdown). */
  async settle(): Promise<void> {
    await Promise.all([...this.contexts.values()].map((c) => c.settle()));
  }

  private async announce(): Promise<Profiles> {
    const view = await this.view();
    this.deps.onListChange(view);
    return view;
  }
}

/** Hosts a plain `http://` base URL may name: this machine only (nothing crosses a network). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a remote profile's base URL is refused, or null: `https://`, or `http://` to this machine
 * only, since tokens and API keys travel in its headers.
 */
export function baseUrlProblem(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'must be an http or https URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'must be an http or https URL';
  if (LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) return null;
  return `must use https:// (plain http:// is allowed only for 127.0.0.1 or localhost, where nothing crosses a network); got ${url.protocol}//${url.host}`;
}

/** Whether two versions of a profile reach the same deployment (its tokens and data still hold). */
function sameDeployment(a: ServiceProfile, b: ServiceProfile): boolean {
  return a.baseUrl === b.baseUrl && a.venue === b.venue && a.graphqlNamespace === b.graphqlNamespace;
}
