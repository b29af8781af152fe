import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import { CampaignReportQuery } from './campaign-report.schemas.js';
import { campaignReportView, reportQuery } from './campaign-report.views.js';
import { smsAllowedHook } from './sharing-limit.hooks.js';
import type { SmsPort } from './sms.port.js';
import { CampaignParams } from './sms.schemas.js';

export const REPORT_DESCRIPTION =
  "What became of the campaign's SMS over [from, to) (default the 30 days before now): totals, rates over `sent` (null when nothing was sent), the NPS of the answers through its links, and a series per hour or day of time_zone (default UTC, daylight saving time included). Read from counters kept per quarter hour (a quarter hour counts when it starts in the range), about a second behind what happened. 400 names from, to, interval or time_zone; to must be after from; from at most 400 days before to by day, 31 days by hour.";

/** GET /v1/sms_campaigns/{campaign_id}/report (docs/api.md "Campaign report"). */
export const campaignReportRoutes =
  (deps: {
    sms: Pick<SmsPort, 'getCampaignReport'>;
    auth: Authenticator;
    disabledAccounts: ReadonlySet<string>;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/sms_campaigns/:campaign_id/report',
      {
        onRequest: [deps.auth(['api']), smsAllowedHook(deps.disabledAccounts)],
        schema: {
          tags: ['sms'],
          security: [{ apiToken: [] }],
          summary: "An SMS campaign's report: totals, rates, NPS and a series by hour or day",
          operationId: 'getSmsCampaignReport',
          description: `${REPORT_DESCRIPTION} Another account's campaign answers 404 like an unknown one.`,
          params: CampaignParams,
          querystring: CampaignReportQuery,
          response: { 200: Type.Unsafe({ $ref: 'SmsCampaignReport#' }), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) =>
        campaignReportView(
          await deps.sms.getCampaignReport({
            accountId: principalOf(req).accountId,
            campaignId: req.params.campaign_id,
            ...reportQuery(req.query),
          }),
        ),
    );
  };
