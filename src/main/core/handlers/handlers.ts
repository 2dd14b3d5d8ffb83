import type { z } from 'zod';
import type { Channel, ChannelResponse, channels } from '../../../shared';
import type { CoreEvents } from '../events';
import type { ServiceClient } from '../client/service-client';
import type { SessionManager } from '../session';
import type { Wallet } from '../wallet/wallet';
import type { AppInfo } from '../../../shared/ipc/contract';

/** What the handlers work with. */
export interface HandlerDeps {
  wallet: Wallet;
  session: SessionManager;
  client: () => Promise<ServiceClient>;
  events: CoreEvents;
  appInfo: () => AppInfo;
}

type Handler<C extends Channel> = (
  request: z.output<(typeof channels)[C]['request']>,
) => Promise<ChannelResponse<C>>;
export type Handlers = { [C in Channel]: Handler<C> };

/** One handler per channel: requests arrive already validated by the dispatcher. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { wallet, session, events } = deps;
  const announce = async () => events.emit('session:changed', await session.status());
  return {
    'app:info': async () => deps.appInfo(),
    'wallet:status': () => wallet.status(),
    'wallet:create': () => wallet.create(),
    'wallet:import': ({ privateKey }) => wallet.import(privateKey),
    'wallet:delete': async ({ address }) => {
      const status = await wallet.delete(address);
      // The session belonged to the deleted wallet.
      await session.logout();
      await announce();
      return status;
    },
    'auth:status': () => session.status(),
    'auth:login': async () => {
      const result = await session.login();
      await announce();
      return result;
    },
    'auth:logout': async () => {
      const result = await session.logout();
      await announce();
      return result;
    },
    'tokens:list': async () => {
      const byProtocol = await (await deps.client()).tokens();
      const groups = Object.keys(byProtocol)
        .sort()
        .map((protocol) => ({ protocol, tokens: byProtocol[protocol] ?? [] }));
      return { groups, fetchedAt: new Date().toISOString() };
    },
  };
}
