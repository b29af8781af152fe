import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import { checkLimitsConfig, type LimitsConfig, type LimitsScope } from '@feedback/kit-limits';
import { requireAccount } from '../../accounts/domain/accounts.use-cases.js';
import type { AccountRepository } from '../../accounts/domain/ports.js';
import { AccountParams, errorResponses } from '../../http/common.schemas.js';
import type { SmsLimitsPort, SmsUsagePort } from './sms-limits.port.js';
import { SmsLimitsBody } from './sms-limits.schemas.js';
import { accountSmsLimitsView, smsLimitsView } from './sms-limits.views.js';

export interface SmsLimitsRoutesDeps {
  limits: SmsLimitsPort;
  usage: SmsUsagePort;
  accounts: AccountRepository;
}

/** The file's parser decides (kit-limits checkLimitsConfig); its paths become the edge's field names (`body.tiers[0].limit`). */
function parseBody(body: unknown): LimitsConfig {
  const checked = checkLimitsConfig(body);
  if (checked.ok) return checked.config;
  const fields: Record<string, string> = {};
  for (const issue of checked.issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
    fields[`body${path}`] ??= issue.message;
  }
  throw errors.invalid(fields);
}

const deployment: LimitsScope = { kind: 'deployment' };
const Limits = Type.Unsafe({ $ref: 'SmsLimits#' });
const AccountLimits = Type.Unsafe({ $ref: 'AccountSmsLimits#' });

/**
 * The SMS sharing limits as a live setting (docs/api.md "Limits"): stored in the gateway's
 * database and in force on every replica within seconds, for the deployment and per account.
 */
export const smsLimitsAdminRoutes =
  (deps: SmsLimitsRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['admin'], security: [{ adminToken: [] }] };
    const deploymentView = () => smsLimitsView(deps.limits.deployment(), deps.limits.accountOverrides);
    const accountView = async (accountId: string) =>
      accountSmsLimitsView(accountId, deps.limits.account(accountId), await deps.usage.usage(accountId));

    app.get(
      '/sms_limits',
      {
        schema: {
          ...common,
          summary: "The deployment's SMS sharing limits in force",
          operationId: 'getSmsLimits',
          description:
            'What every account without limits of its own is limited by, and where it comes from: stored (PUT), the file, or the defaults.',
          response: { 200: Limits, ...errorResponses(401) },
        },
      },
      async () => deploymentView(),
    );

    app.put(
      '/sms_limits',
      {
        schema: {
          ...common,
          summary: "Set the deployment's SMS sharing limits",
          operationId: 'setSmsLimits',
          description:
            'Stored, and in force on every gateway replica within 5 s, without a restart. Wins over SMS_LIMITS_FILE until DELETE. Answers what is now in force.',
          body: SmsLimitsBody,
          response: { 200: Limits, ...errorResponses(400, 401) },
        },
      },
      async (req) => {
        await deps.limits.set(deployment, parseBody(req.body));
        return deploymentView();
      },
    );

    app.delete(
      '/sms_limits',
      {
        schema: {
          ...common,
          summary: "Remove the deployment's stored SMS sharing limits",
          operationId: 'resetSmsLimits',
          description:
            'SMS_LIMITS_FILE, or without it the defaults, is in force again on every replica. 404 naming sms_limits when none are stored.',
          response: { 200: Limits, ...errorResponses(401, 404) },
        },
      },
      async () => {
        const { removed } = await deps.limits.reset(deployment);
        if (!removed) throw errors.notFound('sms_limits', 'deployment');
        return deploymentView();
      },
    );

    app.get(
      '/accounts/:account_id/sms_limits',
      {
        schema: {
          ...common,
          summary: "An account's SMS sharing limits in force, and how full each tier is",
          operationId: 'getAccountSmsLimits',
          description: "Its own limits, or the deployment's; each tier with what was used in its open window and when that ends.",
          params: AccountParams,
          response: { 200: AccountLimits, ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        return accountView(req.params.account_id);
      },
    );

    app.put(
      '/accounts/:account_id/sms_limits',
      {
        schema: {
          ...common,
          summary: "Set an account's own SMS sharing limits",
          operationId: 'setAccountSmsLimits',
          description:
            "They replace the deployment's for this account alone, on every gateway replica within 5 s. Counts carry over in a tier that keeps its position and window. Answers what is now in force.",
          params: AccountParams,
          body: SmsLimitsBody,
          response: { 200: AccountLimits, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        await deps.limits.set({ kind: 'account', accountId: req.params.account_id }, parseBody(req.body));
        return accountView(req.params.account_id);
      },
    );

    app.delete(
      '/accounts/:account_id/sms_limits',
      {
        schema: {
          ...common,
          summary: "Remove an account's own SMS sharing limits",
          operationId: 'deleteAccountSmsLimits',
          description:
            "The account follows the deployment's limits again, on every replica within 5 s. 404 naming sms_limits when it has none of its own.",
          params: AccountParams,
          response: { 200: AccountLimits, ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        await requireAccount(deps, req.params.account_id);
        const { removed } = await deps.limits.reset({ kind: 'account', accountId: req.params.account_id });
        if (!removed) throw errors.notFound('sms_limits', req.params.account_id);
        return accountView(req.params.account_id);
      },
    );
  };
