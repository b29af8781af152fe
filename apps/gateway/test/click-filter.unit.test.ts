import type { IncomingMessage } from 'node:http';
import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { clickDetailsOf, type ClickDetails } from '../src/links/click-details.js';
import { ClickFilter, isPersonsTap, personsAgent, type ClickFilterDeps } from '../src/links/click-filter.js';
import { clientIpOf } from '../src/links/client-ip.js';
import { RecentClicks } from '../src/links/recent-clicks.js';

// Real user agents, as these clients send them.
const notPeople: Record<string, string> = {
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot smartphone':
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  facebookexternalhit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  // What iMessage sends to draw a link's preview, on iOS and macOS.
  'iMessage preview': 'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  'iMessage preview (macOS)':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  Applebot:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  'WhatsApp (Android)': 'WhatsApp/2.23.20.0 A',
  'WhatsApp (iOS)': 'WhatsApp/2.2337.7 i',
  Twitterbot: 'Twitterbot/1.0',
  TelegramBot: 'TelegramBot (like TwitterBot)',
  Slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Discordbot: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  LinkedInBot: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  SkypeUriPreview: 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  'Google-PageRenderer':
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Google-PageRenderer Google (+https://developers.google.com/+/web/snippet/))',
  Viber: 'Viber/20.1.0',
  'Signal preview': 'Mozilla/5.0 (compatible; Signal URL preview)',
  Pinterestbot: 'Pinterestbot/1.0',
  // Tools, not people: nobody reads a survey through curl.
  curl: 'curl/8.4.0',
  Wget: 'Wget/1.21.4',
  "Node's fetch": 'node',
};

const people: Record<string, string> = {
  'Chrome Android': 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  'Safari iOS':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  Firefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Samsung Internet':
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  // A link opened from inside an app is still its user tapping it.
  'Instagram in-app':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111 (iPhone14,5; iOS 17_1; en_US; en; scale=3.00; 1170x2532; 532988380)',
  'Android WebView':
    'Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36',
};

describe('isPersonsTap', () => {
  it.each(Object.entries(notPeople))('%s is not a click', (_name, ua) => {
    expect(isPersonsTap('GET', ua)).toBe(false);
  });

  it.each(Object.entries(people))('%s is a click', (_name, ua) => {
    expect(isPersonsTap('GET', ua)).toBe(true);
    expect(isPersonsTap('GET', ua)).toBe(true); // the remembered verdict too
  });

  it("names a person's user agent by a short name of its own, the same at each tap", () => {
    const names = Object.values(people).map((ua) => personsAgent('GET', ua));
    expect(names.every((n) => /^#\d+$/.test(n!))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.values(people).map((ua) => personsAgent('GET', ua))).toEqual(names);
    expect(personsAgent('GET', notPeople.Googlebot)).toBeUndefined();
    expect(personsAgent('HEAD', people.Firefox)).toBeUndefined();
  });

  it('counts GET only, and never a request without a user agent', () => {
    expect(isPersonsTap('HEAD', people['Safari iOS'])).toBe(false);
    expect(isPersonsTap(undefined, people['Safari iOS'])).toBe(false);
    expect(isPersonsTap('GET', undefined)).toBe(false);
    expect(isPersonsTap('GET', '')).toBe(false);
  });
});

const logger = createLogger('gateway-test', 'silent');

/** A raw request as the link listener's server hands it over. */
const request = (ua: string | undefined, ip = '203.0.113.7', method = 'GET', headers: Record<string, string> = {}) =>
  ({ method, headers: { ...(ua && { 'user-agent': ua }), ...headers }, socket: { remoteAddress: ip } }) as unknown as IncomingMessage;

function filterOf(trust: Parameters<typeof clientIpOf>[0] = false, countryHeader = '', recent?: ClickFilterDeps['recent']) {
  const published: Array<{ code: string; at?: number; details?: ClickDetails }> = [];
  const excluded: string[] = [];
  const clientIp = clientIpOf(trust);
  const filter = new ClickFilter({
    publisher: { record: (code, at, details) => void published.push({ code, at, details }), exclude: (code) => void excluded.push(code) },
    // Without Redis: this process's memory only, the same rule.
    recent: recent ?? new RecentClicks(null, { windowMs: 60_000, maxChars: 100_000, logger }),
    clientIp,
    details: clickDetailsOf({ countryHeader, clientIp }),
  });
  return { filter, published, excluded };
}

describe('ClickFilter', () => {
  it("publishes a person's first tap of a code, not its repeats, bots, previews or HEADs", () => {
    const { filter, published, excluded } = filterOf();
    filter.record('Code1234', request(notPeople.Googlebot));
    filter.record('Code1234', request(notPeople['iMessage preview']));
    filter.record('Code1234', request(people['Safari iOS'], undefined, 'HEAD'));
    filter.record('Code1234', request(undefined));
    filter.record('Code1234', request(people['Safari iOS']));
    filter.record('Code1234', request(people['Safari iOS']));
    expect(published.map((p) => p.code)).toEqual(['Code1234']);
    expect(published[0]!.at).toBeTypeOf('number');
    // Each of the others counted apart as excluded: the bot, the preview, the HEAD, no user agent, the repeat.
    expect(excluded).toEqual(['Code1234', 'Code1234', 'Code1234', 'Code1234', 'Code1234']);
  });

  it('publishes a click with its device, OS, browser and referrer host, the country only from a configured header', () => {
    const headers = { referer: 'https://news.example.com/a/page?email=someone@example.com', 'cf-ipcountry': 'tr' };
    const plain = filterOf();
    plain.filter.record('Code1234', request(people['Safari iOS'], undefined, 'GET', headers));
    expect(plain.published[0]!.details).toEqual({
      device: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      referrerHost: 'news.example.com',
      country: '',
    });
    const trusting = filterOf(false, 'CF-IPCountry');
    trusting.filter.record('Code1234', request(people['Safari iOS'], undefined, 'GET', headers));
    expect(trusting.published[0]!.details!.country).toBe('TR');
  });

  it('counts other codes, other addresses and other browsers apart', () => {
    const { filter, published } = filterOf();
    filter.record('Code1234', request(people['Chrome Android']));
    filter.record('Code5678', request(people['Chrome Android']));
    filter.record('Code1234', request(people['Chrome Android'], '198.51.100.9'));
    filter.record('Code1234', request(people['Samsung Internet']));
    filter.record('Code1234', request(people['Chrome Android']));
    expect(published.map((p) => p.code)).toEqual(['Code1234', 'Code5678', 'Code1234', 'Code1234']);
  });

  it('drained() waits for the taps whose first-in-window answer is still on its way (shutdown sends their clicks)', async () => {
    // Redis answering late: a tap answered before shutdown must reach the publisher before its last send.
    const answers: Array<(first: boolean) => void> = [];
    const slow = { firstInWindow: () => new Promise<boolean>((resolve) => answers.push(resolve)) };
    const { filter, published, excluded } = filterOf(false, '', slow);
    filter.record('Code1234', request(people.Firefox));
    filter.record('Code1234', request(people['Chrome Android']));
    let drained = false;
    const draining = filter.drained().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    answers[0]!(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    answers[1]!(false);
    await draining;
    expect(published.map((p) => p.code)).toEqual(['Code1234']);
    expect(excluded).toEqual(['Code1234']);
    await filter.drained(); // nothing in flight: at once
  });

  it('asks about a client by its address and user agent, remembered by its address and the short name', () => {
    const asked: string[][] = [];
    const recent = { firstInWindow: (...args: [string, string, string?]) => (asked.push(args.map(String)), true) };
    const { filter } = filterOf(false, '', recent);
    filter.record('Code1234', request(people.Firefox));
    expect(asked).toEqual([['Code1234', `203.0.113.7 ${people.Firefox}`, `203.0.113.7 ${personsAgent('GET', people.Firefox)}`]]);
  });

  it('tells clients behind a trusted proxy apart by X-Forwarded-For, and ignores it otherwise', () => {
    const ua = people.Firefox;
    const viaProxy = (client: string) => request(ua, '10.0.0.2', 'GET', { 'x-forwarded-for': client });
    const trusting = filterOf('10.0.0.0/8');
    trusting.filter.record('Code1234', viaProxy('203.0.113.1'));
    trusting.filter.record('Code1234', viaProxy('203.0.113.2'));
    expect(trusting.published).toHaveLength(2);
    // TRUST_PROXY=false: a caller cannot make itself a new client by writing the header.
    const untrusting = filterOf(false);
    untrusting.filter.record('Code1234', viaProxy('203.0.113.1'));
    untrusting.filter.record('Code1234', viaProxy('203.0.113.2'));
    expect(untrusting.published).toHaveLength(1);
  });
});
