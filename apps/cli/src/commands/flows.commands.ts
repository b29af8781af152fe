import type { Command } from './command.js';
import { readJsonFile, ttlDays } from './file-input.js';

const account = { value: 'ID', help: 'the account', required: true };
const ttl = { value: 'DAYS', help: 'how long a link made on it stays valid, in whole days' };

export const flowCommands: Command[] = [
  {
    group: 'flows',
    action: 'create',
    summary: 'create a flow (a survey) from a JSON file (docs/flows.md)',
    options: { account, file: { value: 'flow.json', help: 'the flow: {name, questions: [...]}; - reads stdin', required: true } },
    example: 'feedbackctl flows create --account ACCOUNT_ID --file flow.json',
    run: (c) => c.client.createFlow(c.need('account'), readJsonFile(c.need('file'))),
  },
];

export const channelCommands: Command[] = [
  {
    group: 'channels',
    action: 'create',
    summary: 'create a link channel: personal survey links of a node and flow',
    options: {
      account,
      name: { value: 'NAME', help: "the channel's name", required: true },
      node: { value: 'NODE_ID', help: 'the node the answers are about', required: true },
      flow: { value: 'FLOW_ID', help: 'the survey asked', required: true },
      'ttl-days': ttl,
    },
    example: 'feedbackctl channels create --account ACCOUNT_ID --name web --node NODE_ID --flow FLOW_ID --ttl-days 7',
    run: (c) =>
      c.client.createChannel(c.need('account'), {
        name: c.need('name'),
        node_id: c.need('node'),
        flow_id: c.need('flow'),
        ...ttlDays(c.opt('ttl-days')),
      }),
  },
  {
    group: 'channels',
    action: 'list',
    summary: "list an account's link channels",
    options: { account },
    example: 'feedbackctl channels list --account ACCOUNT_ID',
    run: (c) => c.client.listChannels(c.need('account')),
  },
];

const filters = {
  channel: { value: 'CHANNEL_ID', help: 'only the answers that came through this channel or SMS campaign' },
  since: { value: 'DATE', help: 'answered at or after (2026-11-22, or 2026-11-22T09:30:00+03:00)' },
  until: { value: 'DATE', help: 'answered before' },
};

export const responseCommands: Command[] = [
  {
    group: 'responses',
    action: 'list',
    summary: 'list the answers customers gave, newest first, a page at a time',
    options: {
      account,
      flow: { value: 'FLOW_ID', help: 'only the answers to this flow' },
      ...filters,
      customer: { value: 'EXTERNAL_ID', help: "only this customer's answers" },
      'page-size': { value: 'N', help: '1-200 (default 50)' },
      'page-token': { value: 'TOKEN', help: 'the next_page_token of the previous page' },
    },
    example: 'feedbackctl responses list --account ACCOUNT_ID --flow FLOW_ID --page-size 20',
    run: (c) =>
      c.client.listResponses(c.need('account'), {
        flow_id: c.opt('flow'),
        channel_id: c.opt('channel'),
        customer_external_id: c.opt('customer'),
        since: c.opt('since'),
        until: c.opt('until'),
        page_size: c.opt('page-size'),
        page_token: c.opt('page-token'),
      }),
  },
  {
    group: 'responses',
    action: 'nps',
    summary: "a flow's Net Promoter Score: promoters, passives, detractors and the score of each nps question",
    options: { account, flow: { value: 'FLOW_ID', help: 'the flow', required: true }, ...filters },
    example: 'feedbackctl responses nps --account ACCOUNT_ID --flow FLOW_ID --since 2026-11-01',
    run: (c) =>
      c.client.flowNps(c.need('account'), c.need('flow'), { channel_id: c.opt('channel'), since: c.opt('since'), until: c.opt('until') }),
  },
];
