import type { Handlers, DomainDeps } from './handlers';

type AccountChannel =
  | 'app:info'
  | 'wallet:status'
  | 'wallet:create'
  | 'wallet:import'
  | 'wallet:delete'
  | 'auth:status'
  | 'auth:login'
  | 'auth:logout'
  | 'tokens:list';

/** The app, the login wallet, the session with the active profile's service, and its tokens. */
export function createAccountHandlers(deps: DomainDeps): Pick<Handlers, AccountChannel> {
  const { wallet, profiles, reads } = deps;
  const session = () => profiles.active().session;
  return {
    'app:info': async () => deps.appInfo(),
    'wallet:status': () => wallet.status(),
    'wallet:create': () => wallet.create(),
    'wallet:import': ({ privateKey }) => wallet.import(privateKey),
    'wallet:delete': async ({ address }) => {
      const status = await wallet.delete(address);
      // Every profile's session belonged to the deleted wallet, and so did their user data.
      for (const id of profiles.ids()) await profiles.context(id).session.logout();
      deps.forgetUserData();
      return status;
    },
    'auth:status': () => session().status(),
    'auth:login': async () => {
      const context = profiles.active();
      const before = (await context.session.status()).session?.address.toLowerCase();
      const result = await context.session.login();
      if (before !== undefined && before !== result.address.toLowerCase()) deps.forgetUserData(context.id);
      return result;
    },
    'auth:logout': async () => {
      const context = profiles.active();
      const result = await context.session.logout();
      deps.forgetUserData(context.id);
      return result;
    },
    'tokens:list': async (request) => {
      const answer = await reads.read('tokens:list', request, async () => {
        const byProtocol = await (await profiles.active().serviceClient()).tokens();
        return Object.keys(byProtocol)
          .sort()
          .map((protocol) => ({ protocol, tokens: byProtocol[protocol] ?? [] }));
      });
      return { groups: answer.data, fetchedAt: answer.freshness.fetchedAt };
    },
  };
}
