/**
 * `0x1234567890abcdef1234567890abcdef12345678` → `0x1234…5678`: the prefix and enough of both
 * ends to tell addresses apart at a glance. Strings already short enough come back unchanged.
 */
export function shortAddress(address: string, head = 4, tail = 4): string {
  const prefix = address.startsWith('0x') ? '0x' : '';
  const body = address.slice(prefix.length);
  if (body.length <= head + tail + 1) return address;
  return `${prefix}${body.slice(0, head)}…${body.slice(-tail)}`;
}

/** True when both strings are the same address, whatever the checksum casing. */
export const sameAddress = (a: string, b: string): boolean =>
  a.trim().toLowerCase() === b.trim().toLowerCase();
