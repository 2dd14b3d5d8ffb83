export {
  StatisticsDatasets,
  type StatisticsDatasetsOptions,
  type SearchAfterSource,
} from './statistics-datasets';
export type { LeaderboardAnswer, LeaderboardQuery } from './worker-messages';
