import { writeFileSync } from 'node:fs';
import { UsageError } from '../cli-errors.js';
import { fetchQrImage } from '../qr-client.js';
import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };
const domain = { value: 'DOMAIN', help: 'the host name, e.g. go.acme.com', required: true };

export const domainCommands: Command[] = [
  {
    group: 'domains',
    action: 'list',
    summary: "list an account's customer domains for short links, the default (oldest) first",
    options: { account },
    example: 'feedbackctl domains list --account ACCOUNT_ID',
    run: (c) => c.client.listDomains(c.need('account')),
  },
  {
    group: 'domains',
    action: 'add',
    summary: 'add a customer domain (point its DNS at the link listener, https on 443)',
    options: { account, domain },
    example: 'feedbackctl domains add --account ACCOUNT_ID --domain go.acme.com',
    run: (c) => c.client.addDomain(c.need('account'), c.need('domain')),
  },
  {
    group: 'domains',
    action: 'remove',
    summary: 'remove a customer domain (links already made on it keep resolving)',
    options: { account, domain },
    example: 'feedbackctl domains remove --account ACCOUNT_ID --domain go.acme.com',
    run: async (c) => {
      await c.client.removeDomain(c.need('account'), c.need('domain'));
      return { removed: { domain: c.need('domain') }, account_id: c.need('account') };
    },
  },
];

export const linkCommands: Command[] = [
  {
    group: 'links',
    action: 'list',
    summary: "list an account's short links (its domains' and its SMS'), newest first, with their clicks, expiry and limits",
    options: {
      account,
      domain: { value: 'DOMAIN', help: "only this customer domain's links (the own short domain: those made without one)" },
      tag: { value: 'TAG', help: 'only the links with this tag' },
      'created-after': { value: 'WHEN', help: 'only links made after this ISO 8601 date or date-time' },
      'page-size': { value: 'N', help: '1-200 (default 50)' },
      'page-token': { value: 'TOKEN', help: 'the next_page_token of the previous page' },
    },
    example: 'feedbackctl links list --account ACCOUNT_ID --tag receipts',
    run: (c) =>
      c.client.listAccountLinks(c.need('account'), {
        domain: c.opt('domain'),
        tag: c.opt('tag'),
        created_after: c.opt('created-after'),
        page_size: c.opt('page-size'),
        page_token: c.opt('page-token'),
      }),
  },
  {
    group: 'links',
    action: 'get',
    summary: "show one of an account's short links (404 for another account's)",
    options: { account, code: { value: 'CODE', help: 'the short code (the last part of the short URL)', required: true } },
    example: 'feedbackctl links get --account ACCOUNT_ID --code Ab3dE9x',
    run: (c) => c.client.getAccountLink(c.need('account'), c.need('code')),
  },
  {
    group: 'links',
    action: 'show',
    summary: 'show a short link and its click count',
    options: { code: { value: 'CODE', help: 'the short code (the last part of the short URL)', required: true } },
    example: 'feedbackctl links show --code Ab3dE9x',
    run: (c) => c.client.getLink(c.need('code')),
  },
  {
    group: 'links',
    action: 'qr',
    summary: "save a short link's QR code (it encodes the short URL; fetched from the link listener on the link's own domain)",
    options: {
      code: { value: 'CODE', help: 'the short code (the last part of the short URL)', required: true },
      out: { value: 'FILE', help: 'where to write the image', required: true },
      format: { value: 'svg|png', help: "the image's format (default: --out's extension, else svg)" },
      size: { value: 'PX', help: 'width and height in pixels, 50-1000 (default 300)' },
      margin: { value: 'MODULES', help: 'quiet zone around the code, 0-20 (default 4)' },
    },
    example: 'feedbackctl links qr --code Ab3dE9x --format png --size 600 --out receipt-qr.png',
    run: async (c) => {
      const link = (await c.client.getLink(c.need('code'))) as { id: string; short_url: string };
      const out = c.need('out');
      const format = c.opt('format') ?? /\.(svg|png)$/i.exec(out)?.[1]?.toLowerCase() ?? 'svg';
      const image = await fetchQrImage(link.short_url, { format, size: c.opt('size'), margin: c.opt('margin') });
      writeImage(out, image.bytes);
      return { id: link.id, short_url: link.short_url, out, content_type: image.contentType, bytes: image.bytes.length };
    },
  },
  {
    group: 'links',
    action: 'stats',
    summary:
      "one of an account's links' clicks over a range (default the last 30 days): totals, bots excluded, a series, devices, systems, browsers, referrers, countries",
    options: {
      account,
      code: { value: 'CODE', help: 'the short code (the last part of the short URL)', required: true },
      from: { value: 'DATE', help: 'the range starts: 2026-11-01 or 2026-11-01T00:00:00+03:00 (default 30 days before --to)' },
      to: { value: 'DATE', help: 'the range ends, strictly before (default now)' },
      interval: { value: 'hour|day', help: 'the series buckets (default day; at most 400 days, or 31 days by the hour)' },
      'time-zone': { value: 'ZONE', help: 'IANA time zone of the buckets, e.g. Europe/Istanbul (default UTC)' },
    },
    example: 'feedbackctl links stats --account ACCOUNT_ID --code Ab3dE9x --from 2026-11-01 --time-zone Europe/Istanbul',
    run: (c) =>
      c.client.linkStats(c.need('account'), c.need('code'), {
        from: c.opt('from'),
        to: c.opt('to'),
        interval: c.opt('interval'),
        time_zone: c.opt('time-zone'),
      }),
  },
];

function writeImage(file: string, bytes: Uint8Array) {
  try {
    writeFileSync(file, bytes);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}
