import type { ApiFeature } from '../../http/api-feature.js';
import { smsLimitsAdminRoutes, type SmsLimitsRoutesDeps } from './sms-limits-admin.routes.js';
import { meterSmsLimits } from './sms-limits.metrics.js';
import { AccountSmsLimitsSchema, SmsLimitsSchema } from './sms-limits.schemas.js';

/** The SMS sharing limits as a live setting (docs/api.md "Limits"): admin routes only; the sharing route's limiter reads the same setting. */
export function smsLimitsFeature(deps: SmsLimitsRoutesDeps): ApiFeature {
  meterSmsLimits(deps.limits);
  return {
    schemas: [SmsLimitsSchema, AccountSmsLimitsSchema],
    async adminRoutes(app) {
      await app.register(smsLimitsAdminRoutes(deps));
    },
  };
}
