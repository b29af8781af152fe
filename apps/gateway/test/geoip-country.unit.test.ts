import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGeoIpCountries } from '../src/links/geoip.country.js';

// fixtures/geoip-countries.mmdb: a GeoLite2-Country-format database of documentation networks only
// (203.0.113.0/24 TR, 198.51.100.0/24 DE, 2001:db8::/32 NL), written with the mmdb-writer Python
// package, so the real reader is tested without MaxMind's data (which may not be shipped).
const DATABASE = join(import.meta.dirname, 'fixtures/geoip-countries.mmdb');

describe('LINK_GEOIP_DATABASE', () => {
  it("gives a client address's country by the maxmind reader, nothing for unknown or malformed addresses", async () => {
    const geoip = await openGeoIpCountries(DATABASE);
    expect(geoip.country('203.0.113.7')).toBe('TR');
    expect(geoip.country('198.51.100.250')).toBe('DE');
    expect(geoip.country('::ffff:203.0.113.7')).toBe('TR'); // an IPv4 client on a dual-stack listener
    expect(geoip.country('2001:db8::1')).toBe('NL');
    expect(geoip.country('192.0.2.1')).toBe('');
    expect(geoip.country('not an address')).toBe('');
    expect(geoip.country('')).toBe('');
  });

  it('refuses a path that is no database at start-up', async () => {
    await expect(openGeoIpCountries(join(import.meta.dirname, 'fixtures/link-thread.fixture.ts'))).rejects.toThrow();
  });
});
