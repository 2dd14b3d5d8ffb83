// The service API wire contract: zod schemas and types of every request and response.
export * from './common';
export * from './auth';
export * from './statistics';
export * from './positions';
export * from './graphql';
export * from './copy-trades';
export * from './copy-wallets';
export * from './copy-positions';
export * from './activity-logs';
export * from './tradable-tokens';
export * from './lists';
export * from './feed';
export * from './backtest';
