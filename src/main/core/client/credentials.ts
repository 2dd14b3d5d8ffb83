/** Which credential a call carried: the session's JWT or the profile's API key. */
export type CredentialKind = 'jwt' | 'apiKey';

type MaybePromise<T> = T | Promise<T>;

/**
 * Where the client finds its credentials at the moment of each call: the session's JWT (after
 * login) and the profile's API key (from the keychain). Either may be absent.
 */
export interface Credentials {
  accessToken(): MaybePromise<string | null>;
  apiKey(): MaybePromise<string | null>;
  /**
   * A new credential of `kind`, or null when there is none to be had. The client asks once per
   * call: when the service answered 401 to a call that carried `kind` (an expired or revoked
   * token: the core signs in again with the wallet), and when a call needs an API key that the
   * profile does not have yet (the local profile provisions one). Absent: never renewed.
   */
  renew?(kind: CredentialKind): Promise<string | null>;
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
