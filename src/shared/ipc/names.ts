/**
 * Every IPC channel and event name, `domain:verb`. Kept free of zod so the sandboxed preload can
 * import it without bundling schemas; `contract.ts` attaches the types and is checked to cover
 * exactly these names.
 */
export const channelNames = [
  'app:info',
  'wallet:status',
  'wallet:create',
  'wallet:import',
  'wallet:delete',
  'auth:status',
  'auth:login',
  'auth:logout',
  'tokens:list',
  'leaderboard:page',
  'statistics:pnl',
  'downloads:start',
  'downloads:cancel',
  'downloads:delete',
  'downloads:list',
  'trader:statistics',
  'trader:positions',
  'trader:orders',
  'live:top',
  'live:positions',
  'live:orders',
  'copyTrades:list',
  'copyTrades:create',
  'copyTrades:update',
  'copyTrades:setStatus',
  'copyPositions:page',
  'copyPositions:orders',
  'copyPositions:close',
  'copyPositions:unlink',
  'activityLogs:page',
  'wallets:list',
  'withdraw:preview',
  'withdraw:submit',
  'withdrawals:list',
  'profiles:list',
  'profiles:save',
  'profiles:delete',
  'profiles:switch',
  'settings:get',
  'settings:update',
  'cache:stats',
  'cache:clear',
  'export:csv',
  'export:cancel',
  'feed:status',
  'feed:accounts',
  'backtest:run',
  'backtest:sweep',
  'backtest:cancel',
  'prices:candles',
] as const;
export type Channel = (typeof channelNames)[number];

export const eventNames = [
  'service:state',
  'session:changed',
  'connection:state',
  'data:fresh',
  'download:progress',
  'copy:activity',
  'profile:changed',
  'export:progress',
  'backtest:progress',
] as const;
export type EventName = (typeof eventNames)[number];

/** True when `name` is a declared channel (the bridges refuse anything else). */
export const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && (channelNames as readonly string[]).includes(name);
/** True when `name` is a declared event. */
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && (eventNames as readonly string[]).includes(name);
