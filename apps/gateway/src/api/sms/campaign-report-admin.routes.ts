import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { REPORT_DESCRIPTION } from './campaign-report.routes.js';
import { CampaignReportQuery } from './campaign-report.schemas.js';
import { campaignReportView, reportQuery } from './campaign-report.views.js';
import type { SmsPort } from './sms.port.js';
import { CampaignParams } from './sms.schemas.js';

/** GET /v1/sms_campaigns/{campaign_id}/report for operators (feedbackctl campaigns report). */
export const campaignReportAdminRoutes =
  (deps: { sms: Pick<SmsPort, 'getCampaignReport'>; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/accounts/:account_id/sms_campaigns/:campaign_id/report',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: "An SMS campaign's report: totals, rates, NPS and a series by hour or day",
          operationId: 'getAccountSmsCampaignReport',
          description: `As GET /v1/sms_campaigns/{campaign_id}/report with the account's API token. ${REPORT_DESCRIPTION} An unknown account, or a campaign not the account's, answers 404.`,
          params: Type.Object({ ...AccountParams.properties, ...CampaignParams.properties }),
          querystring: CampaignReportQuery,
          response: { 200: Type.Unsafe({ $ref: 'SmsCampaignReport#' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return campaignReportView(
          await deps.sms.getCampaignReport({
            accountId: req.params.account_id,
            campaignId: req.params.campaign_id,
            ...reportQuery(req.query),
          }),
        );
      },
    );
  };
