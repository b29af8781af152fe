import type { AccountRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { dataErasuresAdminRoutes } from './data-erasures-admin.routes.js';
import { dataErasuresRoutes } from './data-erasures.routes.js';
import type { PrivacyPort } from './privacy.port.js';
import { DataErasureSchema } from './privacy.schemas.js';

export interface PrivacyFeatureDeps {
  /** The survey service, which owns erasure requests (its surveyPeer client). */
  privacy: PrivacyPort;
  /** The admin routes check the account exists. */
  accounts: AccountRepository;
}

/** Personal data on request (docs/api.md "Personal data"): erasure of one person, for integrators and operators. */
export function privacyFeature(deps: PrivacyFeatureDeps): ApiFeature {
  return {
    schemas: [DataErasureSchema],
    routes: (ctx) => dataErasuresRoutes({ ...deps, ...ctx }),
    adminRoutes: dataErasuresAdminRoutes(deps),
  };
}
