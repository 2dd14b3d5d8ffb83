export * from './freshness';
export * from './leaderboard';
export * from './trader';
export * from './live';
export * from './copy';
export * from './wallets';
export * from './settings';
export * from './feed';
