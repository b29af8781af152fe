import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import type { PrivacyPort } from './privacy.port.js';
import { DataErasureBody, DataErasureParams, DataErasureRef } from './privacy.schemas.js';
import { dataErasureView } from './privacy.views.js';

export interface DataErasuresRoutesDeps {
  privacy: PrivacyPort;
  auth: Authenticator;
}

export const DATA_ERASURE_DESCRIPTION =
  'Erases one person’s data in the account across every service (KVKK art. 7, GDPR art. 17): the customers matching any given identifier, their survey links and responses, the SMS messages to their phones, the short links to their survey links and the webhook delivery log entries about them. Opt-outs are kept as a keyed hash, so the phone stays suppressed. Answers 202 at once; each service erases in the background (also one that was down meanwhile, when it is back); read the request until its status is completed. docs/api.md "Personal data".';

/** Erasure of one person's data on request, with the API token (docs/api.md "Personal data"). */
export const dataErasuresRoutes =
  (deps: DataErasuresRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const onRequest = deps.auth(['api']);
    const common = { tags: ['privacy'], security: [{ apiToken: [] }] };

    app.post(
      '/v1/data_erasures',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Request the erasure of one person’s data',
          operationId: 'requestDataErasure',
          description: `${DATA_ERASURE_DESCRIPTION} At least one of phone_number, email, external_id (400 naming them otherwise, or naming a malformed one).`,
          body: DataErasureBody,
          response: { 202: DataErasureRef, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        const { erasure } = await deps.privacy.requestDataErasure({
          accountId: principalOf(req).accountId,
          phoneNumber: req.body.phone_number ?? '',
          email: req.body.email ?? '',
          externalId: req.body.external_id ?? '',
        });
        return reply.status(202).send(dataErasureView(erasure));
      },
    );

    app.get(
      '/v1/data_erasures/:data_erasure_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'An erasure request: its status and what each service erased',
          operationId: 'getDataErasure',
          description: 'Another account’s or an unknown id answers 404 naming data_erasure_id.',
          params: DataErasureParams,
          response: { 200: DataErasureRef, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const { erasure } = await deps.privacy.getDataErasure({
          accountId: principalOf(req).accountId,
          erasureId: req.params.data_erasure_id,
        });
        return dataErasureView(erasure);
      },
    );
  };
