import { getAddress, keccak256, toHex } from 'viem';

/** A token a protocol lists, with the venue's maximum leverage for it (the copy engine caps at it). */
export interface CatalogueToken {
  symbol: string;
  isForex: boolean;
  maxLeverage: number;
}

/**
 * The local service's world: eight simulated perpetual protocols. Their names are our own
 * (the spec leaves real identifiers out); each is UPPER_SNAKE_CASE with a chain suffix as the spec
 * describes.
 */
const crypto = (symbol: string, maxLeverage: number): CatalogueToken => ({
  symbol,
  isForex: false,
  maxLeverage,
});
const forex = (symbol: string): CatalogueToken => ({ symbol, isForex: true, maxLeverage: 100 });

const majors = [crypto('BTC', 50), crypto('ETH', 50), crypto('SOL', 20)];

export const protocolCatalogue: Readonly<Record<string, readonly CatalogueToken[]>> = {
  NOVA_ARB: [
    ...majors,
    crypto('ARB', 20),
    crypto('LINK', 20),
    crypto('DOGE', 20),
    forex('EUR'),
    forex('GBP'),
  ],
  ORBIT_BASE: [...majors, crypto('AVAX', 20), crypto('OP', 20)],
  HELIX_OP: [...majors, crypto('OP', 20), crypto('LINK', 20), forex('JPY')],
  ZENITH_ARB: [...majors, crypto('ARB', 20), crypto('XRP', 20), crypto('BNB', 20)],
  QUASAR_AVAX: [crypto('BTC', 50), crypto('ETH', 50), crypto('AVAX', 20)],
  MERIDIAN_BSC: [...majors, crypto('BNB', 20), crypto('DOGE', 20), crypto('XRP', 20), forex('EUR')],
  TIDE_POLYGON: [crypto('BTC', 50), crypto('ETH', 50), crypto('MATIC', 20), crypto('LINK', 20)],
  SUMMIT_BLAST: [...majors, crypto('DOGE', 20), crypto('PEPE', 10)],
};

/** The protocol identifiers the service knows, sorted. */
export const knownProtocols = (): string[] => Object.keys(protocolCatalogue).sort();

/**
 * A token's on-chain index address in the simulated world: derived from protocol and symbol so
 * that it is stable across runs and machines.
 */
export function indexTokenAddress(protocol: string, symbol: string): string {
  return getAddress(`0x${keccak256(toHex(`${protocol}:${symbol}`)).slice(-40)}`);
}
