/**
 * The key a client address is counted under wherever the server keeps per-address state (the login
 * throttle, the rate limits, the live-update streams). One client must always land in one bucket:
 *
 * - an IPv6 address counts by its /64 network: a single subscriber or host usually gets a whole /64
 *   and can pick any address in it, so counting full addresses would give one attacker 2^64 buckets;
 * - an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports) is the IPv4
 *   address it carries;
 * - the text is canonical: `2001:0db8:0009::0001`, `2001:DB8:9:0:0:0:0:1` and `2001:db8:9::1` are one
 *   address, and a zone index (`fe80::1%eth0`) is not part of it.
 *
 * What a client sends that is not an address at all (only possible through a trusted proxy's
 * X-Forwarded-For) is kept as its lowercase text.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The prefix length an IPv6 client is counted by. */
export const IPV6_CLIENT_PREFIX = 64;

export function clientAddressKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (isIPv4(text)) return text;
  const unzoned = text.replace(/%.*$/, '');
  if (!isIPv6(unzoned)) return text;
  const groups = ipv6Groups(unzoned);
  if (isIpv4Mapped(groups)) {
    const [high, low] = [groups[6] ?? 0, groups[7] ?? 0];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const network = groups.slice(0, IPV6_CLIENT_PREFIX / 16).map((group) => group.toString(16));
  return `${network.join(':')}::/${IPV6_CLIENT_PREFIX}`;
}

/** The eight 16-bit groups of a valid IPv6 address (node:net has checked it). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          // A dotted IPv4 tail holds the last two groups.
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function isIpv4Mapped(groups: number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}
