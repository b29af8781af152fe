import { Type } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../accounts/domain/people.js';
import type { FormValues } from '../api/surveys/survey-form.js';
import { WEBHOOK_EVENT_TYPES } from '../api/webhooks/webhooks.schemas.js';
import { accountScope } from './account-scope.js';
import { accountPickerPage } from './campaigns.views.js';
import type { ConsoleWebhooksPort } from './console.feature.js';
import type { ConsoleContext } from './console.routes.js';
import { pageContext, scoped, sendHtml, viewerOf } from './console-page.js';
import { requireCsrf, requireSession } from './console-session.js';
import { messagePage } from './layout.views.js';
import { webhookPage, webhooksPage } from './webhooks.views.js';

const PAGE_SIZE = 50;
/** Deliveries a page: each shows its attempts. */
const DELIVERIES_PAGE_SIZE = 20;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Token = Type.String({ maxLength: 1024 });
const ListQuery = Type.Object({ account: Type.Optional(Id), page: Type.Optional(Token), lang: Type.Optional(Type.String()) });
const OneQuery = Type.Object({
  account: Type.Optional(Id),
  page: Type.Optional(Token),
  replayed: Type.Optional(Type.Literal('1')),
  lang: Type.Optional(Type.String()),
});
const Params = Type.Object({ id: Id });
const DeliveryParams = Type.Object({ id: Id, delivery: Id });

/** Webhooks carry the account's data to other systems and their secrets sign it: owners and operators only. */
const mayManage = (viewer: Viewer) => viewer.role === 'owner' || viewer.role === 'operator';

/**
 * The account's webhook endpoints (list, add, enable or disable, rotate the secret, shown once)
 * and an endpoint's delivery log with each attempt, a delivery sent again on request.
 */
export const webhooksRoutes =
  (ctx: ConsoleContext & { webhooks: ConsoleWebhooksPort }): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRequest', requireSession(ctx.sessions));
    // Members and viewers see no webhook page at all (403), reads included.
    app.addHook('preValidation', async (req, reply) => {
      const viewer = viewerOf(req);
      if (!mayManage(viewer)) return sendHtml(reply, 403, messagePage(pageContext(req, viewer), 'forbidden'));
    });
    const tz = ctx.displayTimeZone;
    const csrf = requireCsrf(ctx.publicOrigin);

    const scopeOf = async (req: FastifyRequest, reply: FastifyReply, account: string | undefined) => {
      const viewer = viewerOf(req);
      const scope = await accountScope(ctx.accounts, viewer, account);
      if (!scope) {
        await sendHtml(reply, 200, accountPickerPage(pageContext(req, viewer)));
        return null;
      }
      return { viewer, accountId: scope.accountId };
    };
    const formAccount = (req: FastifyRequest) => (req.body as FormValues | undefined)?.account?.[0];

    /** The endpoint's page: its settings, forms and a page of its deliveries; `secret` right after a create or rotate. */
    const showEndpoint = async (
      req: FastifyRequest,
      reply: FastifyReply,
      who: { viewer: Viewer; accountId: string },
      endpointId: string,
      extra: { secret?: string; pageToken?: string; replayed?: boolean; status?: number } = {},
    ) => {
      // Another account's endpoint: the webhooks service answers NOT_FOUND.
      const [{ endpoint }, deliveries] = await Promise.all([
        ctx.webhooks.getEndpoint({ accountId: who.accountId, endpointId }),
        ctx.webhooks.listDeliveries({
          accountId: who.accountId,
          endpointId,
          pageSize: DELIVERIES_PAGE_SIZE,
          pageToken: extra.pageToken ?? '',
        }),
      ]);
      if (!endpoint) throw errors.notFound('endpoint_id', endpointId);
      return sendHtml(
        reply,
        extra.status ?? 200,
        webhookPage(
          pageContext(req, who.viewer),
          {
            ...who,
            endpoint,
            deliveries: deliveries.deliveries,
            nextPageToken: deliveries.nextPageToken,
            firstPage: !extra.pageToken,
            secret: extra.secret,
            replayed: extra.replayed ?? false,
          },
          tz,
        ),
      );
    };

    app.get('/console/webhooks', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
      const q = req.query as { account?: string; page?: string };
      const who = await scopeOf(req, reply, q.account);
      if (!who) return reply;
      const found = await ctx.webhooks.listEndpoints({ accountId: who.accountId, pageSize: PAGE_SIZE, pageToken: q.page ?? '' });
      return sendHtml(
        reply,
        200,
        webhooksPage(
          pageContext(req, who.viewer),
          { ...who, endpoints: found.endpoints, nextPageToken: found.nextPageToken, firstPage: !q.page, eventTypes: WEBHOOK_EVENT_TYPES },
          tz,
        ),
      );
    });

    app.post('/console/webhooks', { schema: { hide: true }, preHandler: csrf }, async (req, reply) => {
      const who = await scopeOf(req, reply, formAccount(req));
      if (!who) return reply;
      const body = req.body as FormValues;
      // The webhooks service checks the URL and the events, naming the field of a bad one.
      const created = await ctx.webhooks.createEndpoint({
        accountId: who.accountId,
        url: body.url?.[0]?.trim() ?? '',
        events: body.events ?? [],
        description: body.description?.[0]?.trim() ?? '',
      });
      return showEndpoint(req, reply, who, created.endpoint!.id, { secret: created.secret, status: 201 });
    });

    app.get('/console/webhooks/:id', { schema: { hide: true, params: Params, querystring: OneQuery } }, async (req, reply) => {
      const q = req.query as { account?: string; page?: string; replayed?: string };
      const who = await scopeOf(req, reply, q.account);
      if (!who) return reply;
      return showEndpoint(req, reply, who, (req.params as { id: string }).id, { pageToken: q.page, replayed: q.replayed === '1' });
    });

    app.post('/console/webhooks/:id/enabled', { schema: { hide: true, params: Params }, preHandler: csrf }, async (req, reply) => {
      const who = await scopeOf(req, reply, formAccount(req));
      if (!who) return reply;
      const { id } = req.params as { id: string };
      const enabled = (req.body as FormValues).enabled?.[0];
      if (enabled !== 'true' && enabled !== 'false') throw errors.invalid({ enabled: 'must be true or false' });
      // An operator's disable is the admin API's (only an operator enables it again).
      await ctx.webhooks.updateEndpoint({
        accountId: who.accountId,
        endpointId: id,
        enabled: enabled === 'true',
        byOperator: who.viewer.role === 'operator',
      });
      return reply.redirect(scoped(`/console/webhooks/${encodeURIComponent(id)}`, who.viewer, who.accountId), 303);
    });

    app.post('/console/webhooks/:id/rotate', { schema: { hide: true, params: Params }, preHandler: csrf }, async (req, reply) => {
      const who = await scopeOf(req, reply, formAccount(req));
      if (!who) return reply;
      const { id } = req.params as { id: string };
      const rotated = await ctx.webhooks.rotateSecret({ accountId: who.accountId, endpointId: id });
      // Shown once, on this answer only: never in a URL, never stored by the console.
      return showEndpoint(req, reply, who, id, { secret: rotated.secret });
    });

    app.post(
      '/console/webhooks/:id/deliveries/:delivery/replay',
      { schema: { hide: true, params: DeliveryParams }, preHandler: csrf },
      async (req, reply) => {
        const who = await scopeOf(req, reply, formAccount(req));
        if (!who) return reply;
        const { id, delivery } = req.params as { id: string; delivery: string };
        await ctx.webhooks.replayDelivery({ accountId: who.accountId, endpointId: id, deliveryId: delivery });
        return reply.redirect(scoped(`/console/webhooks/${encodeURIComponent(id)}`, who.viewer, who.accountId, { replayed: '1' }), 303);
      },
    );
  };
