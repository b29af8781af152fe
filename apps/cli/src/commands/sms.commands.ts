import type { Command } from './command.js';
import { ttlDays } from './file-input.js';

const account = { value: 'ID', help: 'the account', required: true };
const campaign = { value: 'CAMPAIGN_ID', help: 'the SMS campaign', required: true };
const fileName = { value: 'NAME', help: 'the file name the binding watches (default customers.csv)' };
const page = {
  'page-size': { value: 'N', help: '1-200 (default 50)' },
  'page-token': { value: 'TOKEN', help: 'the next_page_token of the previous page' },
};

export const campaignCommands: Command[] = [
  {
    group: 'campaigns',
    action: 'create',
    summary: 'create an SMS campaign; TEXT needs {{link}}, may use {{name}} and other attributes',
    options: {
      account,
      name: { value: 'NAME', help: "the campaign's name", required: true },
      node: { value: 'NODE_ID', help: 'the node the answers are about', required: true },
      flow: { value: 'FLOW_ID', help: 'the survey asked', required: true },
      template: { value: 'TEXT', help: 'the SMS text, with {{link}}', required: true },
      'ttl-days': { value: 'DAYS', help: 'how long the SMS links stay valid, in whole days' },
    },
    example:
      'feedbackctl campaigns create --account ACCOUNT_ID --name visit --node NODE_ID --flow FLOW_ID --template "Hi {{name}}: {{link}}"',
    run: (c) =>
      c.client.createCampaign(c.need('account'), {
        name: c.need('name'),
        node_id: c.need('node'),
        flow_id: c.need('flow'),
        message_template: c.need('template'),
        ...ttlDays(c.opt('ttl-days')),
      }),
  },
  {
    group: 'campaigns',
    action: 'list',
    summary: "list an account's SMS campaigns, newest first, a page at a time",
    options: { account, ...page },
    example: 'feedbackctl campaigns list --account ACCOUNT_ID',
    run: (c) => c.client.listCampaigns(c.need('account'), { page_size: c.opt('page-size'), page_token: c.opt('page-token') }),
  },
  {
    group: 'campaigns',
    action: 'window',
    summary: "set when a campaign's SMS may go out (outside it they wait for its opening), or --clear it",
    options: {
      account,
      campaign,
      start: { value: 'HH:MM', help: 'the opening, 24-hour' },
      end: { value: 'HH:MM', help: 'the closing; before start, the window spans midnight' },
      'time-zone': { value: 'ZONE', help: 'IANA time zone, e.g. Europe/Istanbul' },
      days: { value: 'DAYS', help: 'comma-separated mon,tue,...; default every day' },
      clear: { value: 'yes', help: "remove the campaign's window (the deployment's default then applies)" },
    },
    example:
      'feedbackctl campaigns window --account ACCOUNT_ID --campaign CAMPAIGN_ID --start 09:00 --end 21:00 --time-zone Europe/Istanbul --days mon,tue,wed,thu,fri',
    run: (c) =>
      c.client.updateCampaign(c.need('account'), c.need('campaign'), {
        send_window: c.opt('clear')
          ? null
          : {
              start: c.need('start'),
              end: c.need('end'),
              time_zone: c.need('time-zone'),
              ...(c.opt('days')
                ? {
                    days: c
                      .opt('days')!
                      .split(',')
                      .map((d) => d.trim()),
                  }
                : {}),
            },
      }),
  },
  {
    group: 'campaigns',
    action: 'reminders',
    summary: "set a campaign's reminders (at most 3) to recipients who have not answered",
    options: {
      account,
      campaign,
      after: { value: 'DURATIONS', help: 'comma-separated ISO 8601 durations after the first SMS, e.g. P1D,P3D', required: true },
      template: { value: 'TEXT', help: "the reminders' text, with {{link}}; default the campaign's" },
    },
    example:
      'feedbackctl campaigns reminders --account ACCOUNT_ID --campaign CAMPAIGN_ID --after P1D,P3D --template "Still time: {{link}}"',
    run: (c) =>
      c.client.updateCampaign(c.need('account'), c.need('campaign'), {
        reminders: c
          .need('after')
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean)
          .map((after) => ({ after, ...(c.opt('template') ? { message_template: c.opt('template') } : {}) })),
      }),
  },
  {
    group: 'campaigns',
    action: 'report',
    summary: "a campaign's totals, rates, NPS and a series by hour or day over a range (default the last 30 days)",
    options: {
      account,
      campaign,
      from: { value: 'DATE', help: 'the range starts: 2026-11-01 or 2026-11-01T00:00:00+03:00 (default 30 days before --to)' },
      to: { value: 'DATE', help: 'the range ends, strictly before (default now)' },
      interval: { value: 'hour|day', help: 'the series buckets (default day; at most 400 days, or 31 days by the hour)' },
      'time-zone': { value: 'ZONE', help: 'IANA time zone of the buckets, e.g. Europe/Istanbul (default UTC)' },
    },
    example:
      'feedbackctl campaigns report --account ACCOUNT_ID --campaign CAMPAIGN_ID --from 2026-11-01 --interval day --time-zone Europe/Istanbul',
    run: (c) =>
      c.client.campaignReport(c.need('account'), c.need('campaign'), {
        from: c.opt('from'),
        to: c.opt('to'),
        interval: c.opt('interval'),
        time_zone: c.opt('time-zone'),
      }),
  },
];

export const bindingCommands: Command[] = [
  {
    group: 'bindings',
    action: 'create',
    summary: "the CSV workflow: each upload of NAME into the directory sends the campaign's SMS to its rows",
    options: {
      account,
      campaign,
      directory: { value: 'DIRECTORY_ID', help: 'the file service directory', required: true },
      'file-name': fileName,
    },
    example: 'feedbackctl bindings create --account ACCOUNT_ID --campaign CAMPAIGN_ID --directory DIRECTORY_ID --file-name list.csv',
    run: (c) =>
      c.client.bindDirectory(c.need('account'), c.need('campaign'), {
        directory_id: c.need('directory'),
        ...(c.opt('file-name') ? { file_name: c.opt('file-name') } : {}),
      }),
  },
  {
    group: 'bindings',
    action: 'list',
    summary: "list an SMS campaign's directory bindings",
    options: { account, campaign },
    example: 'feedbackctl bindings list --account ACCOUNT_ID --campaign CAMPAIGN_ID',
    run: (c) => c.client.listBindings(c.need('account'), c.need('campaign')),
  },
  {
    group: 'bindings',
    action: 'remove',
    summary: 'remove a directory binding',
    options: {
      account,
      campaign,
      directory: { value: 'DIRECTORY_ID', help: 'the bound directory', required: true },
      'file-name': fileName,
    },
    example: 'feedbackctl bindings remove --account ACCOUNT_ID --campaign CAMPAIGN_ID --directory DIRECTORY_ID --file-name list.csv',
    run: async (c) => {
      await c.client.unbindDirectory(c.need('account'), c.need('campaign'), c.need('directory'), c.opt('file-name'));
      return { removed: { directory_id: c.need('directory'), file_name: c.opt('file-name') ?? 'customers.csv' } };
    },
  },
];

export const smsMessageCommands: Command[] = [
  {
    group: 'sms-messages',
    action: 'list',
    summary: 'list what the outbox SMS provider was handed for an account, newest first',
    options: {
      account,
      phone: { value: 'PHONE', help: 'only the messages to this number' },
      'page-size': { value: 'N', help: '1-500 (default 50)' },
      'page-token': { value: 'TOKEN', help: 'the next_page_token of the previous page' },
    },
    example: 'feedbackctl sms-messages list --account ACCOUNT_ID --phone +905321234567',
    run: (c) =>
      c.client.listSmsMessages(c.need('account'), {
        phone: c.opt('phone'),
        page_size: c.opt('page-size'),
        page_token: c.opt('page-token'),
      }),
  },
];

export const sharingCommands: Command[] = [
  {
    group: 'sharings',
    action: 'list',
    summary: "list an account's SMS sharings, newest first, a page at a time: what each stores, its status and counters",
    options: {
      account,
      campaign: { value: 'CAMPAIGN_ID', help: "only this campaign's" },
      status: { value: 'STATUS', help: 'scheduled, in_progress, completed or cancelled' },
      'created-after': { value: 'DATE', help: 'created at or after: 2026-11-22 or 2026-11-22T09:30:00+03:00' },
      'created-before': { value: 'DATE', help: 'created strictly before' },
      ...page,
    },
    example: 'feedbackctl sharings list --account ACCOUNT_ID --campaign CAMPAIGN_ID --status completed',
    run: (c) =>
      c.client.listSharings(c.need('account'), {
        campaign_id: c.opt('campaign'),
        status: c.opt('status'),
        created_after: c.opt('created-after'),
        created_before: c.opt('created-before'),
        page_size: c.opt('page-size'),
        page_token: c.opt('page-token'),
      }),
  },
];
