import type { Command } from './command.js';

const account = { value: 'ID', help: 'the account', required: true };
const endpoint = { value: 'ENDPOINT_ID', help: 'the webhook endpoint', required: true };
const page = {
  'page-size': { value: 'N', help: '1-200 (default 50)' },
  'page-token': { value: 'TOKEN', help: 'the next_page_token of the previous page' },
};

/** An operator's view of an account's webhooks; endpoints and their secrets are made with the account's API token. */
export const webhookCommands: Command[] = [
  {
    group: 'webhooks',
    action: 'list',
    summary: "list an account's webhook endpoints (url, events, enabled, why disabled), newest first",
    options: { account, ...page },
    example: 'feedbackctl webhooks list --account ACCOUNT_ID',
    run: (c) => c.client.listWebhookEndpoints(c.need('account'), { page_size: c.opt('page-size'), page_token: c.opt('page-token') }),
  },
  {
    group: 'webhooks',
    action: 'enable',
    summary: 'turn on an endpoint the operator or the service disabled (it answered 410, or failed for a day)',
    options: { account, endpoint },
    example: 'feedbackctl webhooks enable --account ACCOUNT_ID --endpoint ENDPOINT_ID',
    run: (c) => c.client.setWebhookEndpointEnabled(c.need('account'), c.need('endpoint'), true),
  },
  {
    group: 'webhooks',
    action: 'disable',
    summary: 'stop deliveries to an endpoint (disabled_reason "operator"): its account cannot turn it on again, only `webhooks enable`',
    options: { account, endpoint },
    example: 'feedbackctl webhooks disable --account ACCOUNT_ID --endpoint ENDPOINT_ID',
    run: (c) => c.client.setWebhookEndpointEnabled(c.need('account'), c.need('endpoint'), false),
  },
  {
    group: 'webhooks',
    action: 'deliveries',
    summary: "an endpoint's delivery log, newest first: each delivery's attempts, status codes, latency",
    options: { account, endpoint, ...page },
    example: 'feedbackctl webhooks deliveries --account ACCOUNT_ID --endpoint ENDPOINT_ID --page-size 20',
    run: (c) =>
      c.client.listWebhookDeliveries(c.need('account'), c.need('endpoint'), {
        page_size: c.opt('page-size'),
        page_token: c.opt('page-token'),
      }),
  },
  {
    group: 'webhooks',
    action: 'replay',
    summary: 'send a delivery again, with the same webhook-id',
    options: { account, endpoint, delivery: { value: 'DELIVERY_ID', help: 'the delivery', required: true } },
    example: 'feedbackctl webhooks replay --account ACCOUNT_ID --endpoint ENDPOINT_ID --delivery DELIVERY_ID',
    run: (c) => c.client.replayWebhookDelivery(c.need('account'), c.need('endpoint'), c.need('delivery')),
  },
];
