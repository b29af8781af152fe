import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { CampaignRulesBody, remindersIn, sendWindowIn } from './campaign-rules.schemas.js';
import type { SmsPort } from './sms.port.js';
import { campaignView } from './sms.views.js';

const CampaignPath = Type.Object({ ...AccountParams.properties, campaign_id: Type.String({ format: 'uuid' }) });

/** PATCH .../sms_campaigns/{campaign_id}: a campaign's send window, reminders and transliteration (docs/api.md "Send windows"). */
export const campaignRulesAdminRoutes =
  (deps: { sms: Pick<SmsPort, 'updateSmsCampaign'>; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.patch(
      '/accounts/:account_id/sms_campaigns/:campaign_id',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: "Change an SMS campaign's send window, reminders or transliteration",
          operationId: 'updateSmsCampaign',
          description:
            "Only the fields given change (`send_window: null` removes the window; the deployment default then applies). Sharings already made follow the new window from their next step on. 400 names the bad field (send_window.time_zone, reminders[0].after, ...); another account's campaign answers 404.",
          params: CampaignPath,
          body: CampaignRulesBody,
          response: { 200: Type.Unsafe({ $ref: 'SmsCampaign#' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const b = req.body;
        const res = await deps.sms.updateSmsCampaign({
          accountId: req.params.account_id,
          campaignId: req.params.campaign_id,
          updateSendWindow: b.send_window !== undefined,
          sendWindow: b.send_window ? sendWindowIn(b.send_window) : undefined,
          updateReminders: b.reminders !== undefined,
          reminders: b.reminders ? remindersIn(b.reminders) : [],
          transliterate: b.transliterate,
        });
        return campaignView(res.campaign, res.warnings);
      },
    );
  };
