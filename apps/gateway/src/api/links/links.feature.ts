import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { accountLinksAdminRoutes } from './account-links-admin.routes.js';
import type { AccountLinksPort } from './account-links.port.js';
import { accountLinksRoutes } from './account-links.routes.js';
import { AccountLinkSchema } from './account-links.schemas.js';

export interface LinksFeatureDeps {
  shortener: AccountLinksPort;
  /** The admin routes check the account exists. */
  accounts: AccountRepository;
}

/**
 * An account's short links on the API listener (docs/api.md "An account's links"): list, get and
 * change them with its API token; the same for operators. Making and following links stays on
 * the link listener (src/links/).
 */
export function linksFeature(deps: LinksFeatureDeps): ApiFeature {
  return {
    schemas: [AccountLinkSchema],
    routes: (ctx) => async (app) => {
      await app.register(accountLinksRoutes({ ...deps, ...ctx }));
    },
    adminRoutes: accountLinksAdminRoutes(deps),
  };
}
