import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository, NodeRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses, pageRequest } from '../../http/common.schemas.js';
import { remindersIn, sendWindowIn } from './campaign-rules.schemas.js';
import type { SmsPort } from './sms.port.js';
import { CampaignBody, PhonePageQuery, SmsMessagesPageSchema } from './sms.schemas.js';
import { campaignView, messagesPageView } from './sms.views.js';
import { CampaignPageQuery, CampaignPageSchema, SharingSummaryPageSchema, SharingsQuery } from './sms-lists.schemas.js';
import { sharingFilters, sharingSummariesView } from './sms-lists.views.js';

/** POST and GET .../sms_campaigns, GET .../sms_sharings and .../sms_messages (docs/api.md "Admin API"). */
export const smsAdminRoutes =
  (deps: {
    sms: Pick<SmsPort, 'createSmsCampaign' | 'listSmsCampaigns' | 'listSmsSharings' | 'listSmsMessages'>;
    accounts: AccountRepository;
    nodes: NodeRepository;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts/:account_id/sms_campaigns',
      {
        schema: {
          ...common,
          summary: 'Create an SMS campaign',
          operationId: 'createSmsCampaign',
          description:
            "A survey channel for the node and flow plus the message template, with its send window, reminders and transliteration. The node must be the account's (404 node_id), the flow too (404 flow_id). `warnings` says when the template alone costs more than it seems (UCS-2, more than two segments).",
          params: AccountParams,
          body: CampaignBody,
          response: { 201: Type.Unsafe({ $ref: 'SmsCampaign#' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const accountId = req.params.account_id;
        await requireAccount(deps, accountId);
        // Nodes live in the gateway's database; messaging (and survey) get the checked name.
        const node = await deps.nodes.findById(accountId, req.body.node_id);
        if (!node) throw errors.notFound('node_id', req.body.node_id);
        const { campaign, warnings } = await deps.sms.createSmsCampaign({
          accountId,
          name: req.body.name,
          nodeId: node.id,
          nodeName: node.name,
          flowId: req.body.flow_id,
          messageTemplate: req.body.message_template,
          linkTtlDays: req.body.link_ttl_days ?? 0,
          sendWindow: req.body.send_window ? sendWindowIn(req.body.send_window) : undefined,
          reminders: remindersIn(req.body.reminders ?? []),
          transliterate: req.body.transliterate ?? false,
        });
        return reply.status(201).send(campaignView(campaign, warnings));
      },
    );

    app.get(
      '/accounts/:account_id/sms_campaigns',
      {
        schema: {
          ...common,
          summary: "List an account's SMS campaigns, newest first",
          operationId: 'listSmsCampaigns',
          description:
            'The SMS campaigns of the account with their message templates, a page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page). An unknown account answers 404.',
          params: AccountParams,
          querystring: CampaignPageQuery,
          response: { 200: CampaignPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const page = await deps.sms.listSmsCampaigns({ accountId: req.params.account_id, ...pageRequest(req.query) });
        return { data: page.campaigns.map((c) => campaignView(c)), next_page_token: page.nextPageToken || null };
      },
    );

    app.get(
      '/accounts/:account_id/sms_sharings',
      {
        schema: {
          ...common,
          summary: "List an account's SMS sharings, newest first",
          operationId: 'adminListSmsSharings',
          description:
            "As GET /v1/sms_sharings for the account: optionally one campaign's (404 when it is not the account's), in one status, created in a range, a page at a time. An unknown account answers 404.",
          params: AccountParams,
          querystring: SharingsQuery,
          response: { 200: SharingSummaryPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return sharingSummariesView(
          await deps.sms.listSmsSharings({
            accountId: req.params.account_id,
            campaignId: req.query.campaign_id ?? '',
            ...sharingFilters(req.query),
            ...pageRequest(req.query),
          }),
        );
      },
    );

    app.get(
      '/accounts/:account_id/sms_messages',
      {
        schema: {
          ...common,
          summary: 'What the outbox SMS provider was handed, newest first',
          operationId: 'listSmsMessages',
          description:
            "The messages the deployment's `outbox` provider recorded for the account, optionally for one phone, a page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page).",
          params: AccountParams,
          querystring: PhonePageQuery,
          response: { 200: SmsMessagesPageSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const page = await deps.sms.listSmsMessages({
          accountId: req.params.account_id,
          phone: req.query.phone ?? '',
          ...pageRequest(req.query),
        });
        return messagesPageView(page);
      },
    );
  };
