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

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8'])(
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
  });

  it('the URL policy: https only unless http is allowed, and an IP written in the URL is judged', () => {
    const https = urlPolicy(strict, false);
    expect(https(new URL('http://example.com/'))).toMatch(/https/);
    expect(https(new URL('https://example.com/'))).toBeNull();
    expect(https(new URL('https://169.254.169.254/latest'))).toMatch(/metadata/);
    expect(https(new URL('https://[::1]:8443/'))).toMatch(/loopback/);
    expect(https(new URL('https://[::ffff:10.0.0.1]/'))).toMatch(/private/);
    const local = urlPolicy(addressGuard(parseCidrs('127.0.0.0/8')), true);
    expect(local(new URL('http://127.0.0.1:3000/hook'))).toBeNull();
    expect(local(new URL('http://169.254.169.254/'))).toMatch(/metadata/);
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
