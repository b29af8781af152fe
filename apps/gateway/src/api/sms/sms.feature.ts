import type { Clock } from '@feedback/kit-core';
import type { AccountRepository, NodeRepository } from '../../accounts/domain/ports.js';
import type { ApiFeature } from '../../http/api-feature.js';
import type { IdempotencyKeys } from './idempotency-keys.repository.js';
import type { SharingLimiter } from './sharing-limit.hooks.js';
import { directoryBindingsAdminRoutes } from './directory-bindings-admin.routes.js';
import { DirectoryBindingSchema } from './directory-bindings.schemas.js';
import { sharingsRoutes } from './sharings.routes.js';
import { smsAdminRoutes } from './sms-admin.routes.js';
import { smsProviderAdminRoutes } from './sms-provider-admin.routes.js';
import { SmsProviderSchema } from './sms-provider.schemas.js';
import type { SmsPort } from './sms.port.js';
import { smsSchemas } from './sms.schemas.js';

export interface SmsFeatureDeps {
  sms: SmsPort;
  accounts: AccountRepository;
  nodes: NodeRepository;
  /** The four-tier limit per account (kit-limits TierLimiter). */
  limiter: SharingLimiter;
  idempotency: IdempotencyKeys;
  clock: Clock;
  maxPhones: number;
  bodyLimitBytes: number;
  /** Deadline of the create-sharing call (SMS_SHARING_DEADLINE_MS). */
  sharingDeadlineMs: number;
  /** Accounts whose SMS the operator has stopped (403). */
  disabledAccounts?: readonly string[];
}

/** SMS sharing (docs/api.md "SMS sharing") with its status, and the admin side: campaigns, the outbox, CSV workflow bindings, an account's own SMS provider. */
export function smsFeature(deps: SmsFeatureDeps): ApiFeature {
  const disabledAccounts = new Set(deps.disabledAccounts ?? []);
  return {
    schemas: [...smsSchemas, DirectoryBindingSchema, SmsProviderSchema],
    routes: (ctx) => sharingsRoutes({ ...deps, ...ctx, disabledAccounts }),
    async adminRoutes(app) {
      await app.register(smsAdminRoutes(deps));
      await app.register(directoryBindingsAdminRoutes(deps));
      await app.register(smsProviderAdminRoutes(deps));
    },
  };
}
