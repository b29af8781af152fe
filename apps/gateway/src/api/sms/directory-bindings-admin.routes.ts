import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { errorResponses } from '../../http/common.schemas.js';
import { BindBody, BindingParams, UnbindParams, UnbindQuery } from './directory-bindings.schemas.js';
import type { SmsPort } from './sms.port.js';
import { bindingView } from './sms.views.js';

const Binding = Type.Unsafe({ $ref: 'SmsDirectoryBinding#' });

/**
 * The CSV workflow's switch (docs/api.md "Workflows on files"): a directory's file name bound to an
 * SMS campaign makes a sharing from each upload of that name.
 */
export const directoryBindingsAdminRoutes =
  (deps: {
    sms: Pick<SmsPort, 'bindDirectory' | 'listDirectoryBindings' | 'unbindDirectory'>;
    accounts: AccountRepository;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };
    const path = '/accounts/:account_id/sms_campaigns/:campaign_id/directories';

    app.post(
      path,
      {
        schema: {
          ...common,
          summary: "Bind a directory's file name to an SMS campaign",
          operationId: 'bindCampaignDirectory',
          description:
            "Each upload of file_name (default customers.csv) into the directory then makes one sharing of the campaign from the rows of the latest unprocessed file of that name (a CSV with a header row; phone or phone_number required). Binding the same directory and name again moves it to this campaign. 404 naming campaign_id or directory_id for an unknown or another account's one.",
          params: BindingParams,
          body: BindBody,
          response: { 201: Binding, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        const { binding } = await deps.sms.bindDirectory({
          accountId: req.params.account_id,
          campaignId: req.params.campaign_id,
          directoryId: req.body.directory_id,
          fileName: req.body.file_name ?? '',
        });
        if (!binding) throw new Error('messaging answered BindDirectory without a binding');
        return reply.status(201).send(bindingView(binding));
      },
    );

    app.get(
      path,
      {
        schema: {
          ...common,
          summary: "An SMS campaign's directory bindings, newest first",
          operationId: 'listCampaignDirectories',
          description:
            "Each directory and file name whose uploads make a sharing of this campaign (at most 1,000). 404 naming campaign_id for an unknown or another account's campaign.",
          params: BindingParams,
          response: { 200: Type.Object({ data: Type.Array(Binding) }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { bindings } = await deps.sms.listDirectoryBindings({ accountId: req.params.account_id, campaignId: req.params.campaign_id });
        return { data: bindings.map(bindingView) };
      },
    );

    app.delete(
      `${path}/:directory_id`,
      {
        schema: {
          ...common,
          summary: "Unbind a directory's file name from an SMS campaign",
          operationId: 'unbindCampaignDirectory',
          description:
            'Later uploads of file_name (default customers.csv) make no sharing. 404 naming directory_id when the campaign has no such binding.',
          params: UnbindParams,
          querystring: UnbindQuery,
          response: { 204: Type.Null({ description: 'Unbound.' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        await deps.sms.unbindDirectory({
          accountId: req.params.account_id,
          campaignId: req.params.campaign_id,
          directoryId: req.params.directory_id,
          fileName: req.query.file_name ?? '',
        });
        return reply.status(204).send(null);
      },
    );
  };
