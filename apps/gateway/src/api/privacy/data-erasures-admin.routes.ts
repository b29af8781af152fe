import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { DATA_ERASURE_DESCRIPTION } from './data-erasures.routes.js';
import type { PrivacyPort } from './privacy.port.js';
import { DataErasureBody, DataErasureParams, DataErasureRef } from './privacy.schemas.js';
import { dataErasureView } from './privacy.views.js';

/** The same requests for an operator (feedbackctl erasures ...), any account, with the ADMIN_TOKEN. */
export const dataErasuresAdminRoutes =
  (deps: { privacy: PrivacyPort; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.post(
      '/accounts/:account_id/data_erasures',
      {
        schema: {
          ...common,
          summary: 'Request the erasure of one person’s data in an account',
          operationId: 'requestAccountDataErasure',
          description: `As POST /v1/data_erasures with the account’s API token. ${DATA_ERASURE_DESCRIPTION}`,
          params: AccountParams,
          body: DataErasureBody,
          response: { 202: DataErasureRef, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const { erasure } = await deps.privacy.requestDataErasure({
          accountId: req.params.account_id,
          phoneNumber: req.body.phone_number ?? '',
          email: req.body.email ?? '',
          externalId: req.body.external_id ?? '',
        });
        return reply.status(202).send(dataErasureView(erasure));
      },
    );

    app.get(
      '/accounts/:account_id/data_erasures/:data_erasure_id',
      {
        schema: {
          ...common,
          summary: 'An erasure request of an account',
          operationId: 'getAccountDataErasure',
          description: 'As GET /v1/data_erasures/{data_erasure_id} with the account’s API token.',
          params: Type.Object({ ...AccountParams.properties, ...DataErasureParams.properties }),
          response: { 200: DataErasureRef, ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { erasure } = await deps.privacy.getDataErasure({ accountId: req.params.account_id, erasureId: req.params.data_erasure_id });
        return dataErasureView(erasure);
      },
    );
  };
