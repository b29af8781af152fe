import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelKind } from '@feedback/proto/feedback/survey/v1/survey';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository, NodeRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { requireOwnNode } from './node-access.js';
import type { SurveysPort } from './surveys.port.js';
import { ChannelBody } from './surveys.schemas.js';
import { channelView } from './surveys.views.js';

const channelRef = Type.Unsafe({ $ref: 'Channel#' });

/** Channels: where personal links come from (a node, a flow, how long a link stays open). */
export const channelsAdminRoutes =
  (deps: {
    surveys: Pick<SurveysPort, 'createChannel' | 'listChannels'>;
    accounts: AccountRepository;
    nodes: Pick<NodeRepository, 'findById'>;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts/:account_id/channels',
      {
        schema: {
          ...common,
          summary: 'Create a link channel',
          operationId: 'createChannel',
          description: "node_id and flow_id must be the account's (404 naming them otherwise).",
          params: AccountParams,
          body: ChannelBody,
          response: { 201: channelRef, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const { account_id } = req.params;
        await requireAccount(deps, account_id);
        const node = await requireOwnNode(deps.nodes, account_id, req.body.node_id);
        const { channel } = await deps.surveys.createChannel({
          accountId: account_id,
          name: req.body.name,
          nodeId: node.id,
          nodeName: node.name,
          flowId: req.body.flow_id,
          linkTtlDays: req.body.link_ttl_days ?? 0,
          kind: ChannelKind.CHANNEL_KIND_LINK,
        });
        return reply.status(201).send(channelView(channel));
      },
    );

    app.get(
      '/accounts/:account_id/channels',
      {
        schema: {
          ...common,
          summary: "List an account's channels, newest first",
          operationId: 'listChannels',
          description: 'Each channel with its node, flow and link lifetime (`link_ttl_days`). An unknown account answers 404.',
          params: AccountParams,
          response: { 200: Type.Object({ data: Type.Array(channelRef) }), ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { channels } = await deps.surveys.listChannels({ accountId: req.params.account_id });
        return { data: channels.map(channelView) };
      },
    );
  };
