import type { DomainDeps, Handlers } from './handlers';

type ProfileChannel = 'profiles:list' | 'profiles:save' | 'profiles:delete' | 'profiles:switch';

/**
 * The service profiles: the local service and the remote deployments the user saved. API keys go
 * to the keychain and never come back (`hasApiKey` only). Changes push `profile:changed`.
 */
export function createProfileHandlers(deps: DomainDeps): Pick<Handlers, ProfileChannel> {
  const { profiles } = deps;
  return {
    'profiles:list': () => profiles.view(),
    'profiles:save': ({ profile, apiKey }) => profiles.save(profile, apiKey),
    'profiles:delete': ({ id }) => profiles.delete(id),
    'profiles:switch': ({ id }) => profiles.switch(id),
  };
}
