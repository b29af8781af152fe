import type { ApiFeature } from '../../http/api-feature.js';
import { webhookEndpointsRoutes } from './webhook-endpoints.routes.js';
import type { WebhooksPort } from './webhooks.port.js';
import { webhooksSchemas } from './webhooks.schemas.js';

export interface WebhooksFeatureDeps {
  webhooks: WebhooksPort;
}

/** Signed webhooks (docs/api.md "Webhooks"): an account's endpoints, their secrets and delivery logs. */
export function webhooksFeature(deps: WebhooksFeatureDeps): ApiFeature {
  return {
    schemas: webhooksSchemas,
    routes: (ctx) => async (app) => {
      await app.register(webhookEndpointsRoutes({ ...deps, ...ctx }));
    },
  };
}
