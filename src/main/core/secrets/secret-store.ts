/** Secrets behind one small interface (docs/style.md): the wallet key, tokens, API keys. */
export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The OS keychain cannot be used; `message` says why and what to do. Never falls back to a file. */
export class KeychainUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeychainUnavailableError';
  }
}
