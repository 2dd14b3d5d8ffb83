// The simulated market's constants: prices, volatilities, fees, funding, margin. docs/simulator.md
// explains each; changing one changes every seeded world, so tests pin the ones they rely on.

/** How a symbol's price moves: its level at the start, its yearly volatility and its jumps. */
export interface SymbolDynamics {
  startPrice: number;
  /** Annualised volatility of log returns (0.6 = 60 %). */
  volatility: number;
  /** Expected jumps per day. */
  jumpsPerDay: number;
  /** Standard deviation of a jump's log return. */
  jumpSize: number;
  /** Mean hourly funding rate (longs pay shorts when positive). */
  fundingPerHour: number;
  /** Correlation of the symbol's returns with the common crypto market factor. */
  correlation: number;
}

const crypto = (startPrice: number, volatility: number, jumpSize = 0.04): SymbolDynamics => ({
  startPrice,
  volatility,
  jumpsPerDay: 0.3,
  jumpSize,
  fundingPerHour: 0.00001,
  correlation: 0.6,
});

const forex = (startPrice: number): SymbolDynamics => ({
  startPrice,
  volatility: 0.08,
  jumpsPerDay: 0.05,
  jumpSize: 0.006,
  fundingPerHour: 0.000001,
  correlation: 0,
});

/** Every symbol of the catalogue with its dynamics; prices are rough USD levels. */
export const SYMBOL_DYNAMICS: Readonly<Record<string, SymbolDynamics>> = {
  BTC: crypto(60_000, 0.55, 0.03),
  ETH: crypto(3_000, 0.7, 0.035),
  SOL: crypto(150, 0.95),
  ARB: crypto(1.1, 1.0),
  LINK: crypto(15, 0.85),
  DOGE: crypto(0.15, 1.05, 0.05),
  AVAX: crypto(35, 0.9),
  OP: crypto(2.5, 1.0),
  XRP: crypto(0.55, 0.8),
  BNB: crypto(550, 0.6),
  MATIC: crypto(0.7, 0.95),
  PEPE: crypto(0.00001, 1.4, 0.07),
  EUR: forex(1.08),
  GBP: forex(1.27),
  JPY: forex(0.0067),
};

/** The dynamics of a symbol; an unknown one trades like a mid-cap coin around 1 USD. */
export const dynamicsOf = (symbol: string): SymbolDynamics => SYMBOL_DYNAMICS[symbol] ?? crypto(1, 0.9);

/** Taker fee on every fill's notional, per protocol (a fraction: 0.0006 = 0.06 %). */
export const TAKER_FEE: Readonly<Record<string, number>> = {
  NOVA_ARB: 0.0006,
  ORBIT_BASE: 0.0005,
  HELIX_OP: 0.0006,
  ZENITH_ARB: 0.00045,
  QUASAR_AVAX: 0.0008,
  MERIDIAN_BSC: 0.0004,
  TIDE_POLYGON: 0.0007,
  SUMMIT_BLAST: 0.00035,
};

/** The taker fee of a protocol; unknown protocols charge 0.05 %. */
export const takerFeeOf = (protocol: string): number => TAKER_FEE[protocol] ?? 0.0005;

/**
 * Maintenance margin as a fraction of the notional: a long is liquidated at
 * entry × (1 − 1/leverage + MAINTENANCE), a short at entry × (1 + 1/leverage − MAINTENANCE).
 */
export const MAINTENANCE = 0.005;

/** One step of the historical price paths: one minute, fine enough for scalpers and bots. */
export const STEP_MS = 60_000;

/** Steps per block of the paths' min/max summaries (one hour): crossing searches skip whole blocks. */
export const BLOCK_STEPS = 60;

/** One hour and one year in milliseconds. */
export const HOUR_MS = 3_600_000;
export const YEAR_MS = 365 * 24 * HOUR_MS;
/**
 * How far back a trader's opens count as their recent activity: how often they act in the live
 * market, and whom the demo user's copy trades follow (fixture/copy-fixture.ts).
 */
export const ACTIVITY_WINDOW_MS = 7 * 24 * HOUR_MS;

/** Block time of the simulated chains: block number = floor(time / BLOCK_MS). */
export const BLOCK_MS = 250;
