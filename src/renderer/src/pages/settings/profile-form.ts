// The remote-profile form: its fields as typed, their checks (the shared profile schema) and the
// `profiles:save` request. The API key is write-only: the form never shows a stored key.
import {
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_SERVICE_NAME,
  DEFAULT_VENUE,
  serviceProfileSchema,
  type ServiceProfile,
} from '@shared/profile';
import type { ProfileView } from '@shared/ipc/schemas/settings';

export interface ProfileFormValues {
  /** Empty for a new profile: one is made from the name. */
  id: string;
  name: string;
  baseUrl: string;
  serviceName: string;
  venue: string;
  graphqlNamespace: string;
  /** A new key to store; empty keeps the stored one (or stores none). */
  apiKey: string;
  /** Forget the stored key. */
  removeApiKey: boolean;
}

export type ProfileField = Exclude<keyof ProfileFormValues, 'removeApiKey'>;
export type ProfileIssues = Partial<Record<ProfileField, string>>;

const PROFILE_LABELS: Record<ProfileField, string> = {
  id: 'Id',
  name: 'Name',
  baseUrl: 'Base URL',
  serviceName: 'Service name',
  venue: 'Venue',
  graphqlNamespace: 'GraphQL namespace',
  apiKey: 'API key',
};

/** A new remote profile with the defaults of docs/api.md. */
export function emptyProfileForm(): ProfileFormValues {
  return {
    id: '',
    name: '',
    baseUrl: 'https://',
    serviceName: DEFAULT_SERVICE_NAME,
    venue: DEFAULT_VENUE,
    graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
    apiKey: '',
    removeApiKey: false,
  };
}

/** An existing profile in the form; the key field starts empty whatever is stored. */
export function profileToForm(profile: ProfileView): ProfileFormValues {
  return {
    id: profile.id,
    name: profile.name,
    baseUrl: profile.baseUrl,
    serviceName: profile.serviceName,
    venue: profile.venue,
    graphqlNamespace: profile.graphqlNamespace,
    apiKey: '',
    removeApiKey: false,
  };
}

/** `My Staging (EU)` → `my-staging-eu`, unique among `taken` (`-2`, `-3`… when needed). */
export function profileIdFor(name: string, taken: readonly string[]): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 34) || 'remote';
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The profile the form describes (always `remote`: the local one is not edited here). */
function formToProfile(v: ProfileFormValues, taken: readonly string[]): ServiceProfile {
  return {
    id: v.id || profileIdFor(v.name, taken),
    name: v.name.trim(),
    kind: 'remote',
    baseUrl: v.baseUrl.trim().replace(/\/+$/, ''),
    serviceName: v.serviceName.trim(),
    venue: v.venue.trim(),
    graphqlNamespace: v.graphqlNamespace.trim(),
  };
}

/** The form's problems by field, from the shared profile schema. */
export function profileFormIssues(v: ProfileFormValues, taken: readonly string[]): ProfileIssues {
  const issues: ProfileIssues = {};
  const parsed = serviceProfileSchema.safeParse(formToProfile(v, taken));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const head = issue.path[0];
      if (typeof head === 'string' && head in PROFILE_LABELS && !issues[head as ProfileField]) {
        issues[head as ProfileField] = issue.message;
      }
    }
  }
  if (v.apiKey.length > 400) issues.apiKey = 'must be at most 400 characters';
  return issues;
}

/** `profiles:save`: `apiKey` a new key, null to forget the stored one, absent to keep it. */
export function profileSaveRequest(
  v: ProfileFormValues,
  taken: readonly string[],
): { profile: ServiceProfile; apiKey?: string | null } {
  const profile = formToProfile(v, taken);
  const key = v.apiKey.trim();
  if (key) return { profile, apiKey: key };
  if (v.removeApiKey) return { profile, apiKey: null };
  return { profile };
}
