import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoWithOffset } from '@feedback/kit-core';
import { getRetention, setRetention, type RetentionDeps, type RetentionView } from '../../accounts/domain/retention.use-cases.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { RetentionBody } from './retention.schemas.js';

const ref = Type.Unsafe({ $ref: 'AccountRetention#' });

const retentionView = (v: RetentionView) => ({
  account_id: v.accountId,
  retention_days: v.retentionDays,
  messages: v.effective.messages,
  responses: v.effective.responses,
  webhook_deliveries: v.effective.webhook_deliveries,
  updated_at: v.updatedAt ? isoWithOffset(v.updatedAt) : null,
});

/** How long an account's personal data is kept (docs/api.md "Retention"): the gateway stores it and publishes account.retention. */
export const retentionRoutes =
  (deps: RetentionDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.get(
      '/accounts/:account_id/retention',
      {
        schema: {
          ...common,
          summary: "Show an account's retention",
          operationId: 'getRetention',
          description:
            "The days each kind of personal data is kept for the account, and whether that is the account's own value or the deployment default.",
          params: AccountParams,
          response: { 200: ref, ...errorResponses(401, 404) },
        },
      },
      async (req) => retentionView(await getRetention(deps, req.params.account_id)),
    );

    app.put(
      '/accounts/:account_id/retention',
      {
        schema: {
          ...common,
          summary: "Set an account's retention",
          operationId: 'setRetention',
          description:
            'Replaces the setting: `retention_days` for every kind, a kind’s own field over it, a field left out follows the deployment default (`{}` returns to the defaults); 0 keeps for ever. The services apply it in their next sweep (every few minutes). Answers as GET does.',
          params: AccountParams,
          body: RetentionBody,
          response: { 200: ref, ...errorResponses(400, 401, 404, 503) },
        },
      },
      async (req) => {
        const b = req.body;
        const view = await setRetention(deps, req.params.account_id, {
          retentionDays: b.retention_days,
          days: { messages: b.messages_days, responses: b.responses_days, webhook_deliveries: b.webhook_deliveries_days },
        });
        return retentionView(view);
      },
    );
  };
