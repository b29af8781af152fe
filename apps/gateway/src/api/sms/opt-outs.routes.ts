import { isoWithOffset } from '@feedback/kit-core';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses, pageRequest } from '../../http/common.schemas.js';
import { smsAllowedHook } from './sharing-limit.hooks.js';
import { OptOutParams, OptOutsAddedSchema, OptOutsBody, OptOutsPageSchema } from './opt-outs.schemas.js';
import { PhonePageQuery } from './sms.schemas.js';
import type { SmsPort } from './sms.port.js';

export interface OptOutsRoutesDeps {
  sms: Pick<SmsPort, 'addSmsOptOuts' | 'listSmsOptOuts' | 'deleteSmsOptOut'>;
  auth: Authenticator;
  disabledAccounts: ReadonlySet<string>;
}

/** The account's SMS suppression list (docs/api.md "SMS opt-out"): no SMS of the account reaches a phone on it. */
export const optOutsRoutes =
  (deps: OptOutsRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = [deps.auth(['api']), smsAllowedHook(deps.disabledAccounts)];
    const common = { tags: ['sms'], security: [{ apiToken: [] }] };

    app.post(
      '/v1/sms_opt_outs',
      {
        onRequest,
        schema: {
          ...common,
          summary: "Put phones on the account's SMS opt-out list",
          operationId: 'addSmsOptOuts',
          description:
            'At most 1,000 phones per request. Sharings then reject these phones (reason `opted_out`), and a message not yet handed to the provider ends `opted_out` instead of going out.',
          body: OptOutsBody,
          response: { 200: OptOutsAddedSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const res = await deps.sms.addSmsOptOuts({
          accountId: principalOf(req).accountId,
          phoneNumbers: req.body.phone_numbers.map(String),
          source: 'api',
        });
        return { added: res.added, already: res.already };
      },
    );

    app.get(
      '/v1/sms_opt_outs',
      {
        onRequest,
        schema: {
          ...common,
          summary: "List the account's SMS opt-outs, newest first",
          operationId: 'listSmsOptOuts',
          description:
            'Optionally one phone, in any notation. A page at a time (`page_size`, then `page_token` = the previous `next_page_token`, null on the last page).',
          querystring: PhonePageQuery,
          response: { 200: OptOutsPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const page = await deps.sms.listSmsOptOuts({
          accountId: principalOf(req).accountId,
          phone: req.query.phone ?? '',
          ...pageRequest(req.query),
        });
        return {
          data: page.optOuts.map((o) => ({ phone: o.phone, source: o.source, created_at: isoWithOffset(new Date(o.createdAt)) })),
          next_page_token: page.nextPageToken || null,
        };
      },
    );

    app.delete(
      '/v1/sms_opt_outs/:phone',
      {
        onRequest,
        schema: {
          ...common,
          summary: "Take a phone off the account's SMS opt-out list",
          operationId: 'deleteSmsOptOut',
          description: 'Answers 204; the phone may get the account’s SMS again. A phone not on the list answers 404 naming it.',
          params: OptOutParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        await deps.sms.deleteSmsOptOut({ accountId: principalOf(req).accountId, phone: req.params.phone });
        return reply.status(204).send(null);
      },
    );
  };
