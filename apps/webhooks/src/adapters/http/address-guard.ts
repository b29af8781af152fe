import { BlockList, isIP } from 'node:net';

/** Always refused, whatever the operator allows: the cloud metadata services. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254'];

/** Addresses a webhook never reaches unless the operator allows a range (WEBHOOKS_ALLOWED_CIDRS). */
const REFUSED: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'], // NAT64: reaches IPv4 addresses behind it
  ['2001:db8::', 32, 'ipv6'], // documentation
];

export interface AddressGuard {
  /** Why the address may not be reached, or null. */
  refusal(address: string): string | null;
}

/** Parses `10.1.0.0/16,fd12::/64`; throws naming the bad entry. */
export function parseCidrs(text: string): [string, number, 'ipv4' | 'ipv6'][] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((cidr) => {
      const [addr, bits] = cidr.split('/');
      const family = isIP(addr ?? '');
      const prefix = Number(bits);
      if (!family || bits === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128))
        throw new Error(`"${cidr}" is not a CIDR range like 10.0.0.0/8`);
      return [addr!, prefix, family === 4 ? 'ipv4' : 'ipv6'];
    });
}

/** net.BlockList over the refused ranges, minus the operator's allowed ones; the metadata addresses stay refused. */
export function addressGuard(allowed: readonly [string, number, 'ipv4' | 'ipv6'][] = []): AddressGuard {
  const refused = new BlockList();
  for (const [addr, prefix, family] of REFUSED) refused.addSubnet(addr, prefix, family);
  const allow = new BlockList();
  for (const [addr, prefix, family] of allowed) allow.addSubnet(addr, prefix, family);
  const metadata = new BlockList();
  for (const a of METADATA) metadata.addAddress(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');

  return {
    refusal(address) {
      const family = isIP(address);
      if (!family) return `${address} is not an IP address`;
      // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) reaches the IPv4 address: judge that one.
      const mapped = family === 6 ? mappedIpv4(address) : undefined;
      const [addr, type] = mapped ? [mapped, 'ipv4' as const] : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
      if (metadata.check(addr, type)) return `${addr} is a cloud metadata address`;
      if (refused.check(addr, type) && !allow.check(addr, type)) return `${addr} is a private, loopback, link-local or reserved address`;
      return null;
    },
  };
}

/** The IPv4 address inside ::ffff:a.b.c.d or ::ffff:hhhh:hhhh (as URL parsing writes it). */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
