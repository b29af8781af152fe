import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { flowsAdminRoutes } from './flows-admin.routes.js';
import { FlowViewCache } from './flow-view.cache.js';
import type { FlowsPort } from './flows.port.js';
import { flowsRoutes } from './flows.routes.js';
import { FlowSchema } from './flows.schemas.js';

/** Flow details (docs/flows.md) and creating flows (admin). */
interface FlowsFeatureDeps {
  flows: FlowsPort;
  accounts: AccountRepository;
  /** Bound of the flow views kept by this process (FlowViewCache). */
  flowCacheMaxBytes: number;
}

export function flowsFeature(deps: FlowsFeatureDeps): ApiFeature {
  const flowViews = new FlowViewCache(deps.flows, { maxBytes: deps.flowCacheMaxBytes });
  return {
    schemas: [FlowSchema],
    routes: (ctx) => flowsRoutes({ flowViews, ...ctx }),
    adminRoutes: flowsAdminRoutes(deps),
  };
}
