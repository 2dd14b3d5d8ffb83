/** What the import form says about the key typed so far. */
export interface KeyCheck {
  valid: boolean;
  /** Hex digits typed, without the optional 0x. */
  digits: number;
  /** A problem that no further typing fixes (a non-hex character, too many digits), or null. */
  problem: string | null;
}

export const KEY_DIGITS = 64;

/**
 * Checks the format the core accepts for `wallet:import` (64 hex digits, optional lowercase 0x,
 * surrounding spaces ignored — see the contract's schema), so a typo is caught before the key
 * leaves the form. The core checks again; this only spares a round trip.
 */
export function checkPrivateKey(input: string): KeyCheck {
  const value = input.trim();
  const hex = value.startsWith('0x') ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(hex)) {
    return {
      valid: false,
      digits: hex.length,
      problem: 'A private key holds only hex digits (0–9, a–f), after an optional 0x.',
    };
  }
  if (hex.length > KEY_DIGITS) {
    return {
      valid: false,
      digits: hex.length,
      problem: `A private key is ${KEY_DIGITS} hex digits; this has ${hex.length}.`,
    };
  }
  return { valid: hex.length === KEY_DIGITS, digits: hex.length, problem: null };
}
