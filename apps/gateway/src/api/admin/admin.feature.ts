import type { PeopleDeps } from '../../accounts/domain/people.ports.js';
import type { AccountsDeps } from '../../accounts/domain/ports.js';
import type { RetentionDeps } from '../../accounts/domain/retention.use-cases.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { accountsRoutes } from './accounts.routes.js';
import type { AdminLinksPort } from './admin.port.js';
import { AccountSchema, DomainSchema, IssuedTokenSchema, LinkStatsSchema, NodeSchema, TokenInfoSchema } from './admin.schemas.js';
import { linksAdminRoutes } from './links-admin.routes.js';
import { retentionRoutes } from './retention.routes.js';
import { RetentionSchema } from './retention.schemas.js';
import { usersRoutes } from './users.routes.js';
import { CreatedUserSchema, UserSchema } from './users.schemas.js';

/**
 * The operators' side of what has no feature folder of its own: accounts, tokens, nodes,
 * retention and the console's users and operators (the gateway's own database), and short links with their customer domains (the shortener's public
 * face is the link listener, src/links/).
 */
interface AdminFeatureDeps extends AccountsDeps {
  shortener: AdminLinksPort;
  retention: RetentionDeps;
  people: PeopleDeps;
}

export function adminFeature(deps: AdminFeatureDeps): ApiFeature {
  return {
    schemas: [
      AccountSchema,
      NodeSchema,
      IssuedTokenSchema,
      TokenInfoSchema,
      LinkStatsSchema,
      DomainSchema,
      RetentionSchema,
      UserSchema,
      CreatedUserSchema,
    ],
    async adminRoutes(app) {
      await app.register(accountsRoutes(deps));
      await app.register(linksAdminRoutes(deps));
      await app.register(retentionRoutes(deps.retention));
      await app.register(usersRoutes(deps.people));
    },
  };
}
