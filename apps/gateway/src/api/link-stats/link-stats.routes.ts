import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import type { LinkStatsPort } from './link-stats.port.js';
import { LinkStatsParams, LinkStatsQuery } from './link-stats.schemas.js';
import { linkStatsQuery, linkStatsView } from './link-stats.views.js';

export const STATS_DESCRIPTION =
  "The link's clicks over [from, to) (default the 30 days before now): the total, the redirects excluded as no click (`bots_excluded`), a series per hour or day of time_zone (default UTC, daylight saving time included), and the clicks per device type, operating system, browser, referring host and country, most first. Read from counters kept per link and hour (the hour holding `from` counts whole), about a second behind the clicks. 400 names from, to, interval or time_zone; to must be after from; from at most 400 days before to by day, 31 days by hour.";

/** GET /v1/links/{code}/stats (docs/api.md "A link's stats"). */
export const linkStatsRoutes =
  (deps: { shortener: LinkStatsPort; auth: Authenticator }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v1/links/:code/stats',
      {
        onRequest: [deps.auth(['api'])],
        schema: {
          tags: ['links'],
          security: [{ apiToken: [] }],
          summary: "One of the account's links' clicks: totals, a series, devices, browsers, referrers, countries",
          operationId: 'getLinkStats',
          description: `${STATS_DESCRIPTION} A link not the account's (its domains' links and its SMS links are) answers 404 (13002) naming \`code\`, like an unknown one.`,
          params: LinkStatsParams,
          querystring: LinkStatsQuery,
          response: { 200: Type.Unsafe({ $ref: 'LinkStats#' }), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) =>
        linkStatsView(
          await deps.shortener.getLinkAnalytics({
            accountId: principalOf(req).accountId,
            code: req.params.code,
            ...linkStatsQuery(req.query),
          }),
        ),
    );
  };
