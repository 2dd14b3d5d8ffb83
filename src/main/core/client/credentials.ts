/**
 * Where the client finds its credentials at the moment of each call: the session's JWT (after
 * login) and the profile's API key (from the keychain). Either may be absent.
 */
export interface Credentials {
  accessToken(): string | null;
  apiKey(): string | null;
}

/** No credentials at all: anonymous calls only. */
export const NO_CREDENTIALS: Credentials = { accessToken: () => null, apiKey: () => null };

/** Fixed credentials, for scripts and tests. */
export function staticCredentials(values: {
  accessToken?: string | null;
  apiKey?: string | null;
}): Credentials {
  return { accessToken: () => values.accessToken ?? null, apiKey: () => values.apiKey ?? null };
}
