import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, isoWithOffset } from '@feedback/kit-core';
import type { SmsProvider } from '@feedback/proto/feedback/messaging/v1/messaging';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import { SmsProviderBody } from './sms-provider.schemas.js';
import type { SmsPort } from './sms.port.js';

/** Messaging answers the settings masked already; the gateway only adds the dates. */
function providerView(p: SmsProvider | undefined) {
  if (!p) throw errors.internal('messaging answered without the provider');
  return {
    ...(JSON.parse(p.configJson) as Record<string, unknown>),
    created_at: isoWithOffset(new Date(p.createdAt)),
    updated_at: isoWithOffset(new Date(p.updatedAt)),
  };
}

const Provider = Type.Unsafe({ $ref: 'SmsProvider#' });

/**
 * An account's own SMS provider (docs/api.md "Admin API"): its SMS then go through the account's
 * operator contract and sender instead of the deployment's provider.
 */
export const smsProviderAdminRoutes =
  (deps: {
    sms: Pick<SmsPort, 'putSmsProvider' | 'getSmsProvider' | 'deleteSmsProvider'>;
    accounts: AccountRepository;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };

    app.put(
      '/accounts/:account_id/sms_provider',
      {
        schema: {
          ...common,
          summary: "Set an account's own SMS provider",
          operationId: 'setSmsProvider',
          description:
            "The account's SMS go through this provider from now on (other messaging replicas follow within ACCOUNT_SMS_PROVIDER_CACHE_MS, 30 s by default) and its delivery reports are read by its `dlr` rule. Replaces the one it had. Stored encrypted; the answer and GET show it masked, so a change means sending it whole again. 503 when the deployment has no SMS_PROVIDER_SECRETS_KEY (nothing is stored).",
          params: AccountParams,
          body: SmsProviderBody,
          response: { 200: Provider, ...errorResponses(400, 401, 404, 503) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { provider } = await deps.sms.putSmsProvider({ accountId: req.params.account_id, configJson: JSON.stringify(req.body) });
        return providerView(provider);
      },
    );

    app.get(
      '/accounts/:account_id/sms_provider',
      {
        schema: {
          ...common,
          summary: "An account's own SMS provider, masked",
          operationId: 'getSmsProvider',
          description:
            "404 naming sms_provider when the account has none: its SMS go through the deployment's provider. 503 when it was sealed with a key the deployment no longer has (SMS_PROVIDER_SECRETS_PREVIOUS_KEYS).",
          params: AccountParams,
          response: { 200: Provider, ...errorResponses(401, 404, 503) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return providerView((await deps.sms.getSmsProvider({ accountId: req.params.account_id })).provider);
      },
    );

    app.delete(
      '/accounts/:account_id/sms_provider',
      {
        schema: {
          ...common,
          summary: "Remove an account's own SMS provider",
          operationId: 'deleteSmsProvider',
          description: "The account's SMS go through the deployment's provider again. 404 naming sms_provider when it has none.",
          params: AccountParams,
          response: { 204: Type.Null(), ...errorResponses(401, 404) },
        },
      },
      async (req, reply) => {
        await requireAccount(deps, req.params.account_id);
        await deps.sms.deleteSmsProvider({ accountId: req.params.account_id });
        return reply.status(204).send(null);
      },
    );
  };
