import { LOCAL_PROFILE_ID, serviceProfileSchema, type ServiceProfile } from '../../../shared/profile';
import type { KeyValueTable } from '../cache/key-value';

const REMOTE_KEY = 'profiles.remote';
const ACTIVE_KEY = 'profiles.active';

/** The keychain item of a profile's API key. */
export const apiKeyAccount = (profileId: string): string => `apiKey.${profileId}`;

/**
 * The saved remote profiles and which profile is active, in the cache database. The local
 * profile is not stored: it is built from the local service's URL at each start. API keys are
 * never here; they live in the keychain under `apiKey.<id>`.
 */
export class ProfileStore {
  constructor(private readonly table: KeyValueTable) {}

  /** The saved remote profiles, in the order they were added; unreadable entries are skipped. */
  remotes(): ServiceProfile[] {
    const value = this.table.get(REMOTE_KEY);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item) => {
      const parsed = serviceProfileSchema.safeParse(item);
      return parsed.success && parsed.data.id !== LOCAL_PROFILE_ID ? [parsed.data] : [];
    });
  }

  /** Adds or replaces (by id) a remote profile. */
  upsert(profile: ServiceProfile): void {
    const list = this.remotes();
    const index = list.findIndex((p) => p.id === profile.id);
    if (index >= 0) list[index] = profile;
    else list.push(profile);
    this.table.set(REMOTE_KEY, list);
  }

  remove(id: string): void {
    this.table.set(
      REMOTE_KEY,
      this.remotes().filter((p) => p.id !== id),
    );
  }

  /** The id saved as active, or null. */
  activeId(): string | null {
    const value = this.table.get(ACTIVE_KEY);
    return typeof value === 'string' ? value : null;
  }

  setActiveId(id: string): void {
    this.table.set(ACTIVE_KEY, id);
  }
}
