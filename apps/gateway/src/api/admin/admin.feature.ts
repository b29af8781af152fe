import type { AccountsDeps } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { accountsRoutes } from './accounts.routes.js';
import type { AdminLinksPort } from './admin.port.js';
import { AccountSchema, DomainSchema, IssuedTokenSchema, LinkStatsSchema, NodeSchema, TokenInfoSchema } from './admin.schemas.js';
import { linksAdminRoutes } from './links-admin.routes.js';

/**
 * The operators' side of what has no feature folder of its own: accounts, tokens and nodes (the
 * gateway's own database), and short links with their customer domains (the shortener's public
 * face is the link listener, src/links/).
 */
interface AdminFeatureDeps extends AccountsDeps {
  shortener: AdminLinksPort;
}

export function adminFeature(deps: AdminFeatureDeps): ApiFeature {
  return {
    schemas: [AccountSchema, NodeSchema, IssuedTokenSchema, TokenInfoSchema, LinkStatsSchema, DomainSchema],
    async adminRoutes(app) {
      await app.register(accountsRoutes(deps));
      await app.register(linksAdminRoutes(deps));
    },
  };
}
