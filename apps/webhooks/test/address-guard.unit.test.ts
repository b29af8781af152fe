import { describe, expect, it } from 'vitest';
import { addressGuard, parseCidrs } from '../src/adapters/http/address-guard.js';
import { guardedLookup, urlPolicy } from '../src/adapters/http/webhook.transport.js';

// The guard decides where a webhook may go: every refused range, the operator's exceptions, and
// the metadata address that no exception opens.
describe('address guard', () => {
  const strict = addressGuard();
  const refused: [string, string][] = [
    ['loopback', '127.0.0.1'],
    ['loopback (other)', '127.8.9.10'],
    ['loopback v6', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.254'],
    ['private 192.168/16', '192.168.0.10'],
    ['unique local fc00::/7', 'fd12:3456::1'],
    ['link-local', '169.254.10.20'],
    ['link-local v6', 'fe80::1'],
    ['CGNAT', '100.64.0.1'],
    ['unspecified', '0.0.0.0'],
    ['unspecified v6', '::'],
    ['multicast', '224.0.0.251'],
    ['multicast v6', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['metadata', '169.254.169.254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private, hex form', '::ffff:a00:1'],
  ];

  it.each(refused)('refuses %s (%s)', (_what, address) => {
    expect(strict.refusal(address)).toMatch(/address/);
  });

  // IPv6 forms that reach an IPv4 address (or a deprecated range), each written at the metadata
  // address or loopback: judged as the address they reach.
  const embedded: [string, string][] = [
    ['IPv4-compatible metadata', '::a9fe:a9fe'],
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-mapped metadata', '::ffff:a9fe:a9fe'],
    ['SIIT (IPv4-translated) metadata', '::ffff:0:a9fe:a9fe'],
    ['NAT64 well-known prefix, metadata', '64:ff9b::a9fe:a9fe'],
    ['NAT64 well-known prefix, private', '64:ff9b::a00:1'],
    ['NAT64 local-use prefix', '64:ff9b:1::a9fe:a9fe'],
    ['NAT64 local-use prefix, public IPv4', '64:ff9b:1::808:808'],
    ['6to4 of the metadata address', '2002:a9fe:a9fe::1'],
    ['6to4 of a private address', '2002:c0a8:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['site-local (deprecated)', 'fec0::1'],
    ['unique-local', 'fc00::1'],
    ['documentation v6', '2001:db8::1'],
    ['documentation v6 (3fff::/20)', '3fff::1'],
    ['link-local with a zone', 'fe80::1%eth0'],
  ];
  const reserved: [string, string][] = [
    ['this network 0/8', '0.1.2.3'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['documentation', '192.0.2.1'],
    ['documentation', '198.51.100.7'],
    ['documentation', '203.0.113.9'],
    ['benchmarking', '198.19.0.1'],
    ['reserved 240/4', '240.0.0.1'],
  ];

  it.each([...embedded, ...reserved])('refuses %s (%s)', (_what, address) => {
    expect(strict.refusal(address)).toMatch(/address/);
  });

  it.each(embedded)("with the local stack's ranges (127.0.0.0/8) allowed, still refuses %s (%s)", (_what, address) => {
    expect(addressGuard(parseCidrs('127.0.0.0/8')).refusal(address)).toMatch(/address/);
  });

  it.each(['::a9fe:a9fe', '::ffff:a9fe:a9fe', '::ffff:0:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1'])(
    'an embedding of the metadata address (%s) stays refused with every range allowed',
    (address) => {
      expect(addressGuard(parseCidrs('0.0.0.0/0,::/0')).refusal(address)).toMatch(/metadata/);
    },
  );

  it('an allowed IPv4 range opens its IPv4-mapped form only, not its translated or tunnelled forms', () => {
    const guard = addressGuard(parseCidrs('127.0.0.0/8,10.20.0.0/16'));
    expect(guard.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(guard.refusal('::ffff:10.20.1.2')).toBeNull();
    expect(guard.refusal('::7f00:1')).toMatch(/IPv4-compatible/);
    expect(guard.refusal('64:ff9b::a14:102')).toMatch(/NAT64/);
    expect(guard.refusal('2002:a14:102::1')).toMatch(/6to4/);
  });

  it.each(['64:ff9b::808:808', '2002:808:808::1', '::ffff:0:808:808'])('an embedding of a public IPv4 address (%s) passes', (address) => {
    expect(strict.refusal(address)).toBeNull();
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '2001:4860:4860::8888', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8'])(
    'allows the public %s',
    (address) => {
      expect(strict.refusal(address)).toBeNull();
    },
  );

  it("the operator's ranges open those ranges only, and never the metadata address", () => {
    const guard = addressGuard(parseCidrs('127.0.0.0/8, 10.20.0.0/16, 169.254.0.0/16, fd00::/8'));
    expect(guard.refusal('127.0.0.1')).toBeNull();
    expect(guard.refusal('10.20.3.4')).toBeNull();
    expect(guard.refusal('fd00::5')).toBeNull();
    expect(guard.refusal('10.21.0.1')).toMatch(/private/);
    expect(guard.refusal('192.168.1.1')).toMatch(/private/);
    expect(guard.refusal('169.254.169.254')).toMatch(/metadata/);
    expect(guard.refusal('fd00:ec2::254')).toMatch(/metadata/);
  });

  it('refuses a CIDR list it cannot read, naming the entry', () => {
    expect(() => parseCidrs('10.0.0.0/8,10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
    expect(() => parseCidrs('localhost/8')).toThrow(/localhost/);
    expect(() => parseCidrs('10/8')).toThrow(/10\/8/);
  });

  // A fake resolver: these tests run without DNS.
  const names: Record<string, string[]> = {
    'public.example': ['93.184.215.14', '2606:4700::1111'],
    'rebind.example': ['93.184.215.14', '::ffff:0:a9fe:a9fe'],
    'internal.example': ['10.1.2.3'],
  };
  const resolve = async (host: string) => {
    const found = names[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

  it('the URL policy: https only unless http is allowed, and an IP written in the URL is judged', async () => {
    const https = urlPolicy(strict, false, resolve);
    expect(await https(new URL('http://public.example/'))).toMatch(/https/);
    expect(await https(new URL('https://public.example/'))).toBeNull();
    expect(await https(new URL('https://169.254.169.254/latest'))).toMatch(/metadata/);
    expect(await https(new URL('https://[::1]:8443/'))).toMatch(/loopback/);
    expect(await https(new URL('https://[::ffff:10.0.0.1]/'))).toMatch(/private/);
    const local = urlPolicy(addressGuard(parseCidrs('127.0.0.0/8')), true, resolve);
    expect(await local(new URL('http://127.0.0.1:3000/hook'))).toBeNull();
    expect(await local(new URL('http://169.254.169.254/'))).toMatch(/metadata/);
  });

  it.each(['[::a9fe:a9fe]', '[::ffff:0:a9fe:a9fe]', '[64:ff9b:1::a9fe:a9fe]', '[2002:a9fe:a9fe::1]', '[fec0::1]', '[::7f00:1]'])(
    'the URL policy refuses https://%s/ with the defaults and with the local stack’s settings',
    async (host) => {
      expect(await urlPolicy(strict, false, resolve)(new URL(`https://${host}/hook`))).toMatch(/address/);
      expect(await urlPolicy(addressGuard(parseCidrs('127.0.0.0/8')), true, resolve)(new URL(`http://${host}/hook`))).toMatch(/address/);
    },
  );

  it('the URL policy resolves a name when it is saved: any refused address refuses it; a name that does not resolve yet passes', async () => {
    const policy = urlPolicy(strict, false, resolve);
    expect(await policy(new URL('https://internal.example/hook'))).toMatch(/internal.example resolves to 10.1.2.3, a private/);
    expect(await policy(new URL('https://rebind.example/hook'))).toMatch(/metadata/);
    expect(await policy(new URL('https://public.example/hook'))).toBeNull();
    expect(await policy(new URL('https://not-yet.example/hook'))).toBeNull();
  });

  it('the lookup the agent connects with refuses a name that resolves to a refused address', async () => {
    const lookup = guardedLookup(strict);
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/localhost: .*(loopback|private)/);
    const allowed = guardedLookup(addressGuard(parseCidrs('127.0.0.0/8,::1/128')));
    const address = await new Promise<string>((resolve, reject) =>
      allowed('localhost', { family: 4 }, (e, a) => (e ? reject(e) : resolve(a as string))),
    );
    expect(address).toBe('127.0.0.1');
  });
});
