// The market simulator: a deterministic demo world of traders over months of price history, and a
// live market that keeps it moving (docs/simulator.md).
export { seedDemoWorld, DEMO_WORLD } from './seed-demo';
export type { SeedDemoOptions, SeedDemoResult, SeedPhase, SeedProgress } from './seed-demo';
export { startLiveMarket } from './live';
export type { LiveEvent, LiveMarket, LiveMarketOptions, LivePrice } from './live';
export { buildWorld, forEachPosition } from './world';
export type { World, WorldOptions, TraderPlan } from './world';
