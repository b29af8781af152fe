import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import { smsAllowedHook } from './sharing-limit.hooks.js';
import type { SmsPort } from './sms.port.js';
import { CampaignParams, PreviewBody } from './sms.schemas.js';
import { previewView } from './sms.views.js';

export interface PreviewRoutesDeps {
  sms: Pick<SmsPort, 'previewSmsMessage'>;
  auth: Authenticator;
  disabledAccounts: ReadonlySet<string>;
}

/** What a campaign's message looks like and costs, before sending it (docs/api.md "Cost of a message"). */
export const previewRoutes =
  (deps: PreviewRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/sms_campaigns/:campaign_id/preview',
      {
        onRequest: [deps.auth(['api']), smsAllowedHook(deps.disabledAccounts)],
        schema: {
          tags: ['sms'],
          summary: "Preview a campaign's SMS and what it costs",
          operationId: 'previewSmsMessage',
          description:
            "The campaign's message (or a reminder's) for one recipient's custom attributes, rendered as it would be sent (transliterated when the campaign says so) with a placeholder as long as a real short link, and its encoding, segments and characters as the deployment's provider sends it. Sends nothing. Another account's campaign answers 404 like an unknown one; a reminder the campaign does not have, 400 naming `reminder`.",
          security: [{ apiToken: [] }],
          params: CampaignParams,
          body: PreviewBody,
          response: { 200: Type.Unsafe({ $ref: 'SmsPreview#' }), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const attributes = Object.fromEntries(Object.entries(req.body.custom_attributes ?? {}).map(([k, v]) => [k, String(v)]));
        return previewView(
          await deps.sms.previewSmsMessage({
            accountId: principalOf(req).accountId,
            campaignId: req.params.campaign_id,
            customAttributes: attributes,
            reminder: req.body.reminder ?? 0,
          }),
        );
      },
    );
  };
