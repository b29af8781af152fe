import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { linkStatsAdminRoutes } from './link-stats-admin.routes.js';
import type { LinkStatsPort } from './link-stats.port.js';
import { linkStatsRoutes } from './link-stats.routes.js';
import { LinkStatsSchema } from './link-stats.schemas.js';

/**
 * A link's stats on the API listener (docs/api.md "A link's stats"): its clicks by hour or day,
 * device, OS, browser, referrer and country, with the account's API token; the same for operators.
 */
export function linkStatsFeature(deps: { shortener: LinkStatsPort; accounts: AccountRepository }): ApiFeature {
  return {
    schemas: [LinkStatsSchema],
    routes: (ctx) => linkStatsRoutes({ ...deps, ...ctx }),
    adminRoutes: linkStatsAdminRoutes(deps),
  };
}
