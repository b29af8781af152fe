import maxmind, { type CountryResponse } from 'maxmind';
import { countryCode } from './click-details.js';

/**
 * LINK_GEOIP_DATABASE: a GeoLite2/GeoIP2 Country or City database (MaxMind's format), read by the
 * maintained `maxmind` reader with its own LRU cache of lookups, and reloaded when the file is
 * replaced (an operator's geoipupdate). The address is looked up and forgotten: only the
 * country code goes on.
 */
export async function openGeoIpCountries(path: string): Promise<{ country(ip: string): string }> {
  const reader = await maxmind.open<CountryResponse>(path, {
    cache: { max: 10_000 },
    watchForUpdates: true,
    watchForUpdatesNonPersistent: true,
  });
  return {
    country(address) {
      // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d; the database has them as IPv4.
      const ip = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
      if (!maxmind.validate(ip)) return '';
      return countryCode(reader.get(ip)?.country?.iso_code);
    },
  };
}
