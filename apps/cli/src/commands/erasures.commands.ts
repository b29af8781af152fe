import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };

export const erasureCommands: Command[] = [
  {
    group: 'erasures',
    action: 'request',
    summary:
      'erase one person\'s data in the account across every service (docs/api.md "Personal data"); at least one of --phone, --email, --external-id; answers the pending request',
    options: {
      account,
      phone: { value: 'PHONE', help: 'the phone number, any common notation' },
      email: { value: 'EMAIL', help: 'the e-mail address' },
      'external-id': { value: 'ID', help: 'the customer id of the CRM' },
    },
    example: 'feedbackctl erasures request --account ACCOUNT_ID --phone "+90 532 111 22 33"',
    run: (c) => {
      const body: Record<string, string> = {};
      for (const [opt, field] of [
        ['phone', 'phone_number'],
        ['email', 'email'],
        ['external-id', 'external_id'],
      ] as const) {
        const v = c.opt(opt);
        if (v !== undefined) body[field] = v;
      }
      return c.client.requestErasure(c.need('account'), body);
    },
  },
  {
    group: 'erasures',
    action: 'get',
    summary: 'show an erasure request: pending or completed, and what each kind of data it erased',
    options: { account, id: { value: 'ID', help: 'the erasure request', required: true } },
    example: 'feedbackctl erasures get --account ACCOUNT_ID --id ERASURE_ID',
    run: (c) => c.client.getErasure(c.need('account'), c.need('id')),
  },
];
