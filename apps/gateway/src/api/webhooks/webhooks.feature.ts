import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { webhookEndpointsRoutes } from './webhook-endpoints.routes.js';
import { webhooksAdminRoutes } from './webhooks-admin.routes.js';
import type { WebhooksPort } from './webhooks.port.js';
import { webhooksSchemas } from './webhooks.schemas.js';

export interface WebhooksFeatureDeps {
  webhooks: WebhooksPort;
  /** The admin routes check the account exists. */
  accounts: AccountRepository;
}

/** Signed webhooks (docs/api.md "Webhooks"): an account's endpoints, their secrets and delivery logs; an operator's view of them. */
export function webhooksFeature(deps: WebhooksFeatureDeps): ApiFeature {
  return {
    schemas: webhooksSchemas,
    routes: (ctx) => async (app) => {
      await app.register(webhookEndpointsRoutes({ ...deps, ...ctx }));
    },
    adminRoutes: webhooksAdminRoutes(deps),
  };
}
