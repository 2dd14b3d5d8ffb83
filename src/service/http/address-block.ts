import { isIPv4, isIPv6 } from 'node:net';

/**
 * The block of addresses a client's address stands for, as the service's per-address accounts
 * name it (docs/security.md, "Search time"): an IPv4 address is itself (an IPv4-mapped IPv6
 * address, `::ffff:a.b.c.d`, too: a dual-stack socket reports IPv4 clients that way); an IPv6
 * address is its /64 network, `2001:db8:1:2::/64`. A subscriber is routinely given a whole /64
 * and may use any address in it, so keying IPv6 by the address would give one client 2⁶⁴
 * accounts. Anything else (no address at all) is returned as it is.
 */
export function addressBlock(address: string): string {
  if (isIPv4(address)) return address;
  const bare = address.split('%')[0] as string;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (isIpv4Mapped(groups))
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** `::ffff:0:0/96`: an IPv4 client of a dual-stack socket. */
const isIpv4Mapped = (groups: number[]): boolean =>
  groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
