import type { AccountRepository, NodeRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import { campaignReportAdminRoutes } from './campaign-report-admin.routes.js';
import { campaignReportRoutes } from './campaign-report.routes.js';
import { campaignReportSchemas } from './campaign-report.schemas.js';
import { campaignRulesAdminRoutes } from './campaign-rules-admin.routes.js';
import { directoryBindingsAdminRoutes } from './directory-bindings-admin.routes.js';
import { DirectoryBindingSchema } from './directory-bindings.schemas.js';
import { optOutsRoutes } from './opt-outs.routes.js';
import { previewRoutes } from './preview.routes.js';
import { sharingsRoutes, type SharingsRoutesDeps } from './sharings.routes.js';
import { smsAdminRoutes } from './sms-admin.routes.js';
import { smsListSchemas } from './sms-lists.schemas.js';
import { smsListsRoutes } from './sms-lists.routes.js';
import { smsProviderAdminRoutes } from './sms-provider-admin.routes.js';
import { SmsProviderSchema } from './sms-provider.schemas.js';
import type { SmsPort } from './sms.port.js';
import { smsSchemas } from './sms.schemas.js';

/** What the sharing routes take as they are (the limiter: kit-limits' four-tier TierLimiter). */
type SharingSettings = Pick<
  SharingsRoutesDeps,
  'limiter' | 'idempotency' | 'clock' | 'maxPhones' | 'bodyLimitBytes' | 'sharingDeadlineMs' | 'cancelDeadlineMs'
>;

/** The sharing routes' settings, and the ports of both sides. */
export interface SmsFeatureDeps extends SharingSettings {
  sms: SmsPort;
  accounts: AccountRepository;
  nodes: NodeRepository;
  /** Accounts whose SMS the operator has stopped (403). */
  disabledAccounts?: readonly string[];
}

/** SMS sharing (docs/api.md "SMS sharing") with its status, the account's opt-out list ("SMS opt-out"), the campaign report ("Campaign report"), and the admin side: campaigns, the outbox, CSV workflow bindings, an account's own SMS provider. */
export function smsFeature(deps: SmsFeatureDeps): ApiFeature {
  const disabledAccounts = new Set(deps.disabledAccounts ?? []);
  return {
    schemas: [...smsSchemas, ...campaignReportSchemas, ...smsListSchemas, DirectoryBindingSchema, SmsProviderSchema],
    routes: (ctx) => async (app) => {
      await app.register(sharingsRoutes({ ...deps, ...ctx, disabledAccounts }));
      await app.register(optOutsRoutes({ ...deps, ...ctx, disabledAccounts }));
      await app.register(previewRoutes({ ...deps, ...ctx, disabledAccounts }));
      await app.register(smsListsRoutes({ ...deps, ...ctx, disabledAccounts }));
      await app.register(campaignReportRoutes({ ...deps, ...ctx, disabledAccounts }));
    },
    async adminRoutes(app) {
      await app.register(smsAdminRoutes(deps));
      await app.register(campaignRulesAdminRoutes(deps));
      await app.register(directoryBindingsAdminRoutes(deps));
      await app.register(smsProviderAdminRoutes(deps));
      await app.register(campaignReportAdminRoutes(deps));
    },
  };
}
