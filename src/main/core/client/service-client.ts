import type { ServiceProfile } from '../../../shared/profile';
import { loginResponseSchema, userSchema, type User } from '../../../shared/api/auth';
import { tokensResponseSchema, type TokensResponse } from '../../../shared/api/tokens';
import { requestJson, type HttpOptions } from './http';

/** How long one call may take before the terminal says the service did not answer. */
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The API of one deployment, typed by the contract in src/shared. Paths and names that depend
 * on the venue come from the profile.
 */
export class ServiceClient {
  private readonly http: HttpOptions;

  constructor(
    readonly profile: ServiceProfile,
    options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {
    this.http = {
      baseUrl: profile.baseUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.fetch && { fetch: options.fetch }),
    };
  }

  /** `POST /auth/web3/login`: a code for the address to sign. */
  async login(address: string): Promise<string> {
    const answer = await requestJson(
      this.http,
      { method: 'POST', path: '/auth/web3/login', body: { address } },
      loginResponseSchema,
    );
    return answer.verifyCode;
  }

  /** `POST /auth/web3/verify-login`: the signed message for the user and its token. */
  async verifyLogin(body: { address: string; sign: string; time: string }): Promise<User> {
    return requestJson(this.http, { method: 'POST', path: '/auth/web3/verify-login', body }, userSchema);
  }

  /** `GET /pairs/tokens`: tradable tokens by protocol. */
  async tokens(): Promise<TokensResponse['data']> {
    const answer = await requestJson(
      this.http,
      { method: 'GET', path: '/pairs/tokens' },
      tokensResponseSchema,
    );
    return answer.data;
  }
}
