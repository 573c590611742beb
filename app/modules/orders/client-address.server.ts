import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * What an order keeps of the address its checkout came from, to count one client's unpaid
 * orders: a SHA-256 of the address (of its /64 network for IPv6, which one home or phone is
 * given whole). Null when the server does not know the address.
 *
 * A pseudonym, not anonymity: an IPv4 hash can be reversed by trying every address. What
 * protects the shopper (LGPD, minimisation) is that it is never shown anywhere and is erased
 * as soon as the order stops waiting for payment (`updateOrder`).
 */
export function clientAddressHash(address: string): string | null {
  const network = clientNetwork(address);
  if (!network) return null;
  return createHash('sha256').update(`vitrine:client-address:${network}`).digest('hex');
}

/** The address as one client's: IPv4 whole (also when IPv4-mapped), IPv6 as its /64 network. */
export function clientNetwork(address: string): string | null {
  const bare = address.trim().replace(/%.*$/, '').toLowerCase();
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return null;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing IPv4 split). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [Number.parseInt(group, 16)];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = address.split('::');
  const start = parse(head);
  if (tail === undefined) return start;
  const end = parse(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}
