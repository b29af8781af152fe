import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };
const days = (what: string) => ({ value: 'DAYS', help: `${what}; 0 keeps for ever` });

/** A whole number of days as typed; anything else goes as it is, for the API to name the bad field. */
const asDays = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);

export const retentionCommands: Command[] = [
  {
    group: 'retention',
    action: 'get',
    summary: "show how long the account's personal data is kept, per kind, and whether that is its own value or the default",
    options: { account },
    example: 'feedbackctl retention get --account ACCOUNT_ID',
    run: (c) => c.client.getRetention(c.need('account')),
  },
  {
    group: 'retention',
    action: 'set',
    summary: 'replace the account\'s retention (docs/api.md "Retention"): what is left out follows the deployment default',
    options: {
      account,
      days: days('every kind not given itself (retention_days)'),
      messages: days('SMS message records and sharings'),
      responses: days('survey responses'),
      'webhook-deliveries': days('the webhook delivery log'),
    },
    example: 'feedbackctl retention set --account ACCOUNT_ID --days 180 --messages 30',
    run: (c) => {
      const body: Record<string, number | string> = {};
      for (const [opt, field] of [
        ['days', 'retention_days'],
        ['messages', 'messages_days'],
        ['responses', 'responses_days'],
        ['webhook-deliveries', 'webhook_deliveries_days'],
      ] as const) {
        const v = c.opt(opt);
        if (v !== undefined) body[field] = asDays(v);
      }
      return c.client.putRetention(c.need('account'), body);
    },
  },
];
