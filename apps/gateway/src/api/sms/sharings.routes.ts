import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '@feedback/kit-core';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import type { IdempotencyKeys } from '../../accounts/domain/ports.js';
import { idempotencyHooks } from './idempotency.hooks.js';
import { sharingLimitHook, smsAllowedHook, type SharingLimiter } from './sharing-limit.hooks.js';
import type { SmsPort } from './sms.port.js';
import { CampaignParams, IdempotencyHeaders, SharingParams, sharingBodySchema } from './sms.schemas.js';
import { perPhoneAttributes, sharingCancelledView, sharingCreatedView, sharingView } from './sms.views.js';

export interface SharingsRoutesDeps {
  sms: Pick<SmsPort, 'createSmsSharing' | 'getSmsSharing' | 'cancelSmsSharing'>;
  auth: Authenticator;
  limiter: SharingLimiter;
  idempotency: IdempotencyKeys;
  clock: Clock;
  /** Hard cap on phone_numbers (400 above). */
  maxPhones: number;
  /** A sharing of 10,000 phones with attributes is larger than the API's default body limit. */
  bodyLimitBytes: number;
  /** Deadline of the create-sharing call: a large sharing on a busy database outlasts the default. */
  sharingDeadlineMs: number;
  /** Deadline of the cancel call, which writes a record per recipient not yet sent. */
  cancelDeadlineMs: number;
  disabledAccounts: ReadonlySet<string>;
}

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

/** Create an SMS sharing and show its status (docs/api.md "SMS sharing"). */
export const sharingsRoutes =
  (deps: SharingsRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const idempotency = idempotencyHooks({ keys: deps.idempotency, clock: deps.clock, scope: 'sms_sharings' });
    const allowed = smsAllowedHook(deps.disabledAccounts);

    app.post(
      '/v1/sms_campaigns/:campaign_id/sms_sharings',
      {
        onRequest: [deps.auth(['api']), allowed, sharingLimitHook(deps.limiter)],
        preHandler: idempotency.preHandler,
        onSend: idempotency.onSend,
        bodyLimit: deps.bodyLimitBytes,
        schema: {
          tags: ['sms'],
          summary: 'Create an SMS sharing',
          operationId: 'createSmsSharing',
          description:
            "Sends the campaign's message, with a personal survey link, to each phone. Rate-limited per account in tiers (default 20/5 s, 40/25 s, 80/125 s, 160/625 s): every answer carries `RateLimit` and `RateLimit-Policy`, a 429 also `Retry-After`. Another account's campaign answers 404 like an unknown one.",
          security: [{ apiToken: [] }],
          params: CampaignParams,
          headers: IdempotencyHeaders,
          body: sharingBodySchema(deps.maxPhones),
          response: { 200: ref('SmsSharingCreated'), ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
        },
      },
      async (req) => {
        const res = await deps.sms.createSmsSharing(
          {
            accountId: principalOf(req).accountId,
            campaignId: req.params.campaign_id,
            phoneNumbers: req.body.phone_numbers.map(String),
            customAttributes: perPhoneAttributes(req.body.custom_attributes),
            builtInResponses: perPhoneAttributes(req.body.built_in_responses),
            requestKey: req.idempotentRequestKey ?? '',
            sendAt: req.body.send_at ?? '',
          },
          { deadlineMs: deps.sharingDeadlineMs },
        );
        return sharingCreatedView(req.params.campaign_id, res);
      },
    );

    app.get(
      '/v1/sms_sharings/:sharing_id',
      {
        onRequest: [deps.auth(['api']), allowed],
        schema: {
          tags: ['sms'],
          summary: "Show an SMS sharing with each recipient's status",
          operationId: 'getSmsSharing',
          description:
            "The counts of the sharing and each recipient's status: queued, sending, sent, retryable, unknown (may have been sent; never sent again), delivered or failed. Another account's sharing answers 404, like an unknown one.",
          security: [{ apiToken: [] }],
          params: SharingParams,
          response: { 200: ref('SmsSharing'), ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => sharingView(await deps.sms.getSmsSharing({ accountId: principalOf(req).accountId, sharingId: req.params.sharing_id })),
    );

    app.delete(
      '/v1/sms_sharings/:sharing_id',
      {
        onRequest: [deps.auth(['api']), allowed],
        schema: {
          tags: ['sms'],
          summary: 'Cancel what of an SMS sharing has not been sent',
          operationId: 'cancelSmsSharing',
          description:
            "Stops the sharing: its scheduled messages, its reminders and every recipient whose message was not yet handed to the SMS provider (their status becomes `cancelled`). Answers how many were cancelled and how many had already been sent; cancelling again answers the same. Another account's sharing answers 404, like an unknown one.",
          security: [{ apiToken: [] }],
          params: SharingParams,
          response: {
            200: Type.Object({
              cancelled: Type.Integer({ description: 'Recipients that will not be texted.' }),
              already_sent: Type.Integer({
                description: 'Recipients whose message had been handed to the provider (or was being handed over).',
              }),
            }),
            ...errorResponses(401, 403, 404),
          },
        },
      },
      async (req) =>
        sharingCancelledView(
          await deps.sms.cancelSmsSharing(
            { accountId: principalOf(req).accountId, sharingId: req.params.sharing_id },
            { deadlineMs: deps.cancelDeadlineMs },
          ),
        ),
    );
  };
