// A core that only downloads a dataset, run as its own process so that a test can kill it with
// SIGKILL in the middle (tests/integration/dataset-downloads.test.ts). Arguments: a JSON object
// {url, apiKey, datasetsPath, protocol, window, batchSize}. Prints one line per batch written.
import { StatisticsDatasets } from '../../src/main/core/datasets/statistics-datasets';
import type { SearchAfterSource } from '../../src/main/core/datasets/download-run';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import {
  DEFAULT_GRAPHQL_NAMESPACE,
  DEFAULT_SERVICE_NAME,
  DEFAULT_VENUE,
  type ServiceProfile,
} from '../../src/shared/profile';
import type { Window } from '../../src/shared/api/common';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  apiKey: string;
  datasetsPath: string;
  protocol: string;
  window: Window;
  batchSize: number;
  /** Milliseconds to wait before each service call, so that the parent can kill mid-way. */
  delayMs: number;
};
const profile: ServiceProfile = {
  id: 'child',
  name: 'Child',
  kind: 'local',
  baseUrl: args.url,
  serviceName: DEFAULT_SERVICE_NAME,
  venue: DEFAULT_VENUE,
  graphqlNamespace: DEFAULT_GRAPHQL_NAMESPACE,
};
const client = new ServiceClient(profile, { credentials: staticCredentials({ apiKey: args.apiKey }) });
const slow: SearchAfterSource = {
  searchAfterVia: async (body, transport) => {
    await new Promise((resolve) => setTimeout(resolve, args.delayMs));
    return client.searchAfterVia(body, transport);
  },
};
const datasets = new StatisticsDatasets(args.datasetsPath, {
  batchSize: args.batchSize,
  progressIntervalMs: 0,
});
await datasets.start(
  'p',
  { protocol: args.protocol, window: args.window },
  async () => slow,
  (state) => console.log(`progress ${state.state} ${state.downloaded}`),
);
await datasets.settled('p', { protocol: args.protocol, window: args.window });
await datasets.close();
