import type { Command } from './command.js';
import { ttlDays } from './file-input.js';

const account = { value: 'ID', help: 'the account', required: true };
const campaign = { value: 'CAMPAIGN_ID', help: 'the SMS campaign', required: true };
const fileName = { value: 'NAME', help: 'the file name the binding watches (default customers.csv)' };

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
    summary: "list an account's SMS campaigns, newest first",
    options: { account },
    example: 'feedbackctl campaigns list --account ACCOUNT_ID',
    run: (c) => c.client.listCampaigns(c.need('account')),
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
