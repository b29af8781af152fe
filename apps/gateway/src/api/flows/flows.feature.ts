import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { flowsAdminRoutes } from './flows-admin.routes.js';
import { FlowViewCache } from './flow-view.cache.js';
import type { FlowsPort } from './flows.port.js';
import { flowsRoutes } from './flows.routes.js';
import { FlowSchema } from './flows.schemas.js';

/** Flow details (docs/flows.md) and creating flows (admin). */
export function flowsFeature(deps: { flows: FlowsPort; accounts: AccountRepository; flowCacheMaxBytes: number }): ApiFeature {
  const flowViews = new FlowViewCache(deps.flows, { maxBytes: deps.flowCacheMaxBytes });
  return {
    schemas: [FlowSchema],
    routes: (ctx) => flowsRoutes({ flowViews, ...ctx }),
    adminRoutes: flowsAdminRoutes(deps),
  };
}
