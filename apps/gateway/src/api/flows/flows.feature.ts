import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { flowsAdminRoutes } from './flows-admin.routes.js';
import type { FlowViewCache } from './flow-view.cache.js';
import type { FlowsPort } from './flows.port.js';
import { flowsRoutes } from './flows.routes.js';
import { FlowSchema } from './flows.schemas.js';

interface FlowsFeatureDeps {
  flows: FlowsPort;
  accounts: AccountRepository;
  /** The flow service's answers as views, cached by this process (wiring.ts builds it over `flows`). */
  flowViews: Pick<FlowViewCache, 'peek' | 'load'>;
}

/** Flow details (docs/flows.md) and creating flows (admin). */
export function flowsFeature(deps: FlowsFeatureDeps): ApiFeature {
  return {
    schemas: [FlowSchema],
    routes: (ctx) => flowsRoutes({ flowViews: deps.flowViews, ...ctx }),
    adminRoutes: flowsAdminRoutes(deps),
  };
}
