import type { CacheStats } from '../../../shared/ipc/schemas/settings';
import { CoreError } from '../errors';
import { sameSources } from '../local-service/data-sources';
import type { DomainDeps, Handlers } from './handlers';

type SettingsChannel = 'settings:get' | 'settings:update' | 'cache:stats' | 'cache:clear';

/** The user's settings, and the cache's size, limit and clearing. */
export function createSettingsHandlers(deps: DomainDeps): Pick<Handlers, SettingsChannel> {
  const { settings, cache, datasets, applyDataSources } = deps;
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
      const before = settings.get();
      const next = settings.update(changes);
      // A lower limit takes effect at once.
      if (changes.cacheLimitMb !== undefined) cache.evictTo(settings.cacheLimitBytes());
      // Other data sources: the local service restarts with their flags, and the answer waits
      // for it. If it does not start with them, the previous ones are put back and it starts
      // with those again, so that a refused flag cannot leave the terminal without a service.
      if (applyDataSources && !sameSources(before.dataSources, next.dataSources)) {
        try {
          await applyDataSources(next.dataSources);
        } catch (error) {
          const restored = settings.update({ dataSources: before.dataSources });
          const back = await applyDataSources(restored.dataSources).then(
            () => 'it runs with the previous data sources again',
            (again: unknown) => `nor with the previous ones (${(again as Error).message})`,
          );
          throw new CoreError(
            'OFFLINE',
            `The local service did not start with the new data sources (${(error as Error).message}); ${back}.`,
          );
        }
      }
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
