import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { STATS_DESCRIPTION } from './link-stats.routes.js';
import type { LinkStatsPort } from './link-stats.port.js';
import { LinkStatsParams, LinkStatsQuery } from './link-stats.schemas.js';
import { linkStatsQuery, linkStatsView } from './link-stats.views.js';

/** GET /v1/links/{code}/stats for operators (feedbackctl links stats). */
export const linkStatsAdminRoutes =
  (deps: { shortener: LinkStatsPort; accounts: AccountRepository }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/accounts/:account_id/links/:code/stats',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminToken: [] }],
          summary: "One of an account's links' clicks: totals, a series, devices, browsers, referrers, countries",
          operationId: 'getAccountLinkStats',
          description: `As GET /v1/links/{code}/stats with the account's API token. ${STATS_DESCRIPTION} An unknown account, or a link not the account's, answers 404.`,
          params: Type.Object({ ...AccountParams.properties, ...LinkStatsParams.properties }),
          querystring: LinkStatsQuery,
          response: { 200: Type.Unsafe({ $ref: 'LinkStats#' }), ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return linkStatsView(
          await deps.shortener.getLinkAnalytics({ accountId: req.params.account_id, code: req.params.code, ...linkStatsQuery(req.query) }),
        );
      },
    );
  };
