import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import type { ShortLinksPort, SurveysPort } from './surveys.port.js';
import { LinkChannelParams, PersonalLinkBody, type PersonalLinkSchema } from './surveys.schemas.js';
import { personalLinkView } from './surveys.views.js';

/** A customer's personal survey link of a channel, handed out without an SMS. */
export const personalLinksRoutes =
  (deps: { surveys: Pick<SurveysPort, 'activateSurveyLink'>; shortener: ShortLinksPort; auth: Authenticator }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/external/v1/link_channels/:channel_id/links',
      {
        onRequest: deps.auth(['integration']),
        schema: {
          tags: ['surveys'],
          summary: "Create or re-activate a customer's personal survey link",
          operationId: 'createPersonalLink',
          description:
            "The customer is found by external_id, then e-mail, then phone (at least one is required) and updated, or created. The link is the same for the same customer and channel; each call re-opens it for the channel's link_ttl_days. short_link: true also shortens it (the account's default customer domain when configured).",
          security: [{ integrationToken: [] }],
          params: LinkChannelParams,
          body: PersonalLinkBody,
          response: {
            200: Type.Unsafe<Static<typeof PersonalLinkSchema>>({ $ref: 'PersonalLink#' }),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (req) => {
        const { accountId } = principalOf(req);
        const c = req.body.customer;
        const activation = await deps.surveys.activateSurveyLink({
          accountId,
          channelId: req.params.channel_id,
          customer: {
            phoneNumber: c.phone_number ?? '',
            email: c.email ?? '',
            externalId: c.external_id ?? '',
            name: c.name ?? '',
            schema: c.schema ?? {},
          },
          customAttributes: {},
          builtInResponses: req.body.built_in_responses ?? {},
        });
        const short = req.body.short_link ? await deps.shortener.shorten({ url: activation.linkUrl, accountId, domain: '' }) : undefined;
        return personalLinkView(activation, short?.link?.shortUrl ?? null);
      },
    );
  };
