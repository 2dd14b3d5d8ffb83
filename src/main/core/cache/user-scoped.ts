import type { Channel } from '../../../shared';

/**
 * Read channels whose answers belong to the logged-in user rather than to the deployment: they
 * are forgotten when the user logs out, deletes the wallet or logs in with another one, so the
 * next user of the profile never sees the last one's copy trades from the cache.
 */
export const USER_SCOPED_CHANNELS: readonly Channel[] = [
  'copyTrades:list',
  'copyPositions:page',
  'copyPositions:orders',
  'activityLogs:page',
  'wallets:list',
  'withdraw:preview',
];
