import type { CacheStats } from '../../../shared/ipc/schemas/settings';
import type { DomainDeps, Handlers } from './handlers';

type SettingsChannel = 'settings:get' | 'settings:update' | 'cache:stats' | 'cache:clear';

/** The user's settings, and the cache's size, limit and clearing. */
export function createSettingsHandlers(deps: DomainDeps): Pick<Handlers, SettingsChannel> {
  const { settings, cache, datasets } = deps;
  const stats = (): CacheStats => {
    const answers = cache.usage();
    const sets = datasets.stats();
    return {
      bytes: answers.bytes + sets.bytes,
      limitBytes: settings.cacheLimitBytes(),
      entries: answers.entries,
      datasets: sets.datasets,
      datasetRecords: sets.records,
      path: deps.cachePath,
    };
  };
  return {
    'settings:get': async () => settings.get(),
    'settings:update': async (changes) => {
      const next = settings.update(changes);
      // A lower limit takes effect at once.
      if (changes.cacheLimitMb !== undefined) cache.evictTo(settings.cacheLimitBytes());
      return next;
    },
    'cache:stats': async () => stats(),
    // Every profile's cached answers and downloaded datasets; settings, profiles and the
    // withdrawal records are not cache and stay.
    'cache:clear': async () => {
      cache.clear();
      await datasets.clear();
      return stats();
    },
  };
}
