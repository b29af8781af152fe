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
    action: 'show',
    summary: 'show a short link and its click count',
    options: { code: { value: 'CODE', help: 'the short code (the last part of the short URL)', required: true } },
    example: 'feedbackctl links show --code Ab3dE9x',
    run: (c) => c.client.getLink(c.need('code')),
  },
];
