import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clickDetailsOf, countryCode, parseAgent, referrerHost } from '../src/links/click-details.js';

const iPhoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const androidChrome =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const desktopFirefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const iPadSafari =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const request = (headers: Record<string, string>, ip = '203.0.113.7') =>
  ({ method: 'GET', headers, socket: { remoteAddress: ip } }) as unknown as IncomingMessage;

describe('click details', () => {
  it('tells device type, OS and browser from the user agent', () => {
    expect(parseAgent(iPhoneSafari)).toEqual({ device: 'mobile', os: 'iOS', browser: 'Mobile Safari' });
    expect(parseAgent(androidChrome)).toEqual({ device: 'mobile', os: 'Android', browser: 'Chrome' });
    expect(parseAgent(desktopFirefox)).toEqual({ device: 'desktop', os: 'Windows', browser: 'Firefox' });
    expect(parseAgent(iPadSafari).device).toBe('tablet');
  });

  it("keeps the referrer's host only, lower case, and nothing of a referrer that is no web page", () => {
    expect(referrerHost('https://WWW.Google.com/search?q=my+name+is+Ayşe')).toBe('www.google.com');
    expect(referrerHost('http://l.facebook.com:8080/l.php?u=x')).toBe('l.facebook.com');
    expect(referrerHost('android-app://com.google.android.gm/')).toBe('');
    expect(referrerHost('not a url')).toBe('');
    expect(referrerHost(undefined)).toBe('');
  });

  it('takes a country code as edges send it, and no unknown or malformed one', () => {
    expect(countryCode('tr')).toBe('TR');
    expect(countryCode(' DE ')).toBe('DE');
    expect(countryCode('XX')).toBe('');
    expect(countryCode('Turkey')).toBe('');
    expect(countryCode(undefined)).toBe('');
  });

  it('trusts the country header only when LINK_COUNTRY_HEADER names it', () => {
    const headers = { 'user-agent': androidChrome, 'cf-ipcountry': 'TR', referer: 'https://t.co/abc' };
    const clientIp = () => '203.0.113.7';
    expect(clickDetailsOf({ countryHeader: '', clientIp })(request(headers)).country).toBe('');
    expect(clickDetailsOf({ countryHeader: 'X-Country', clientIp })(request(headers)).country).toBe('');
    expect(clickDetailsOf({ countryHeader: 'CF-IPCountry', clientIp })(request(headers))).toEqual({
      device: 'mobile',
      os: 'Android',
      browser: 'Chrome',
      referrerHost: 't.co',
      country: 'TR',
    });
  });

  it('asks the GeoIP database for the client address when no trusted header names a country', () => {
    const asked: string[] = [];
    const geoip = { country: (ip: string) => (asked.push(ip), 'DE') };
    const details = clickDetailsOf({ countryHeader: 'CF-IPCountry', geoip, clientIp: (req) => req.socket.remoteAddress ?? '' });
    expect(details(request({ 'user-agent': desktopFirefox }, '198.51.100.4')).country).toBe('DE');
    expect(details(request({ 'user-agent': desktopFirefox, 'cf-ipcountry': 'FR' })).country).toBe('FR');
    expect(asked).toEqual(['198.51.100.4']);
  });
});
