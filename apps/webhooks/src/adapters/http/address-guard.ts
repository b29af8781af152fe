import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Address, number];

/** Always refused, whatever the operator allows: the cloud metadata services. */
const METADATA: Address[] = [ipaddr.parse('169.254.169.254'), ipaddr.parse('fd00:ec2::254')];

const wellFormed = (text: string) => (text.includes(':') ? ipaddr.IPv6.isValid(text) : ipaddr.IPv4.isValidFourPartDecimal(text));

const v6 = (cidr: string): Cidr => ipaddr.parseCIDR(cidr) as Cidr;

/**
 * IPv6 forms that carry an IPv4 address, and where it sits (the bit offset of its 32 bits). A
 * packet to one reaches that IPv4 address through a translator, a tunnel or the host's own stack,
 * so it is judged as that address.
 */
const EMBEDDING: [Cidr, number, string][] = [
  [v6('::ffff:0:0/96'), 96, 'IPv4-mapped'],
  [v6('::ffff:0:0:0/96'), 96, 'IPv4-translated (SIIT)'],
  [v6('64:ff9b::/96'), 96, 'NAT64'],
  [v6('2002::/16'), 16, '6to4'],
  // Last of all: ::/96 also holds :: and ::1, which are judged as themselves before this list.
  [v6('::/96'), 96, 'IPv4-compatible'],
];

/**
 * IPv6 forms whose IPv4 address cannot be judged as one: Teredo carries two (a server and an
 * obfuscated client), and the local-use NAT64 prefix puts it where its operator chose.
 */
const OPAQUE: [Cidr, string][] = [
  [v6('2001::/32'), 'a Teredo address'],
  [v6('64:ff9b:1::/48'), 'a local-use NAT64 address'],
];

export interface AddressGuard {
  /** Why the address may not be reached, or null. */
  refusal(address: string): string | null;
}

/** Parses `10.1.0.0/16,fd12::/64`; throws naming the bad entry. */
export function parseCidrs(text: string): Cidr[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((cidr) => {
      // Dotted quads only: ipaddr.js also reads 10/8 as 0.0.0.10/8, which no operator means.
      const [addr = ''] = cidr.split('/');
      if (!wellFormed(addr) || !ipaddr.isValidCIDR(cidr)) throw new Error(`"${cidr}" is not a CIDR range like 10.0.0.0/8`);
      return ipaddr.parseCIDR(cidr) as Cidr;
    });
}

const within = (address: Address, ranges: readonly Cidr[]) =>
  ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));

/** The 32 bits at `offset` of an IPv6 address, as an IPv4 address. */
function ipv4At(address: ipaddr.IPv6, offset: number): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(offset / 8, offset / 8 + 4));
}

/**
 * Refuses every address ipaddr.js does not class as global unicast (private, loopback, link-local,
 * CGNAT, unspecified, broadcast, multicast, reserved, benchmarking, documentation, site-local,
 * unique-local...) unless the operator allows its range (WEBHOOKS_ALLOWED_CIDRS); an IPv6 form
 * that embeds an IPv4 address is judged as that address; the metadata addresses never pass.
 *
 * The operator's ranges open an embedded IPv4 address only in its IPv4-mapped form, which the
 * host's own stack connects to as that very IPv4 address: with 127.0.0.0/8 allowed,
 * ::ffff:127.0.0.1 passes but ::7f00:1 (IPv4-compatible), 64:ff9b::7f00:1 (NAT64) and
 * 2002:7f00:1:: (6to4) do not. Those reach the address through a translator or tunnel, a route
 * the allowance was not written for, so their embedded address must be public.
 */
export function addressGuard(allowed: readonly Cidr[] = []): AddressGuard {
  /** What the address is, if refused: "a cloud metadata address", "a private, ... address". */
  const judge = (address: Address, useAllowed: boolean): string | null => {
    if (METADATA.some((m) => m.kind() === address.kind() && m.toNormalizedString() === address.toNormalizedString()))
      return 'a cloud metadata address';
    if (address.range() === 'unicast') return null;
    if (useAllowed && within(address, allowed)) return null;
    return 'a private, loopback, link-local or reserved address';
  };
  const is = (shown: string, what: string | null) => what && `${shown} is ${what}`;

  return {
    refusal(text) {
      const raw = text.replace(/^\[|\]$/g, '');
      if (!wellFormed(raw)) return `${text} is not an IP address`;
      const address = ipaddr.parse(raw);
      if (address.kind() === 'ipv4') return is(raw, judge(address, true));
      const v6addr = address as ipaddr.IPv6;
      // An explicit zone (fe80::1%eth0) names a link: never a webhook's.
      if (v6addr.zoneId) return `${raw} is a link-local address`;
      const range = v6addr.range();
      if (range === 'unspecified' || range === 'loopback') return is(raw, judge(v6addr, true));
      const opaque = OPAQUE.find(([[r, bits]]) => v6addr.match(r, bits));
      if (opaque) return `${raw} is ${opaque[1]}, which may reach any IPv4 address`;
      const embedding = EMBEDDING.find(([[r, bits]]) => v6addr.match(r, bits));
      if (embedding) {
        const [, offset, form] = embedding;
        const ipv4 = ipv4At(v6addr, offset);
        const what = judge(ipv4, form === 'IPv4-mapped');
        return what && `${raw} (${form}) reaches ${ipv4.toString()}, ${what}`;
      }
      return is(raw, judge(v6addr, true));
    },
  };
}
