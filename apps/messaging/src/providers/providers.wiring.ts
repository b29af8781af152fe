import { randomBytes } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import type { MessagingEnv } from '../env.js';
import { KANNEL_DELIVERY_RULE, type DeliveryRule } from '../status/domain/delivery-report.js';
import type { SecretBox } from './adapters/crypto/secret-box.js';
import { accountProviderConfigSchema } from './adapters/http/account-provider.config.js';
import { parseHttpProviderConfig } from './adapters/http/http-provider.config.js';
import { HttpSmsProvider } from './adapters/http/http-sms.provider.js';
import { CachedProviderResolver } from './adapters/provider.resolver.js';
import type { AccountProviderRepository, SmsProvider } from './ports.js';

/**
 * Accounts' own providers: the key that seals their settings (none: they cannot be set), how long
 * one is remembered, and where their delivery reports come ({dlr_url}).
 */
export interface AccountProvidersConfig {
  secrets: SecretBox;
  cacheMs: number;
  dlrBaseUrl?: string;
  dlrSecret?: string;
}

/**
 * The deployment's SMS provider (SMS_PROVIDER) and how the delivery reports of messages recorded
 * without a rule read. `outbox` answers no provider: messagingDeps builds the recording one, which
 * needs the database. A bad SMS_HTTP_PROVIDER throws, naming the variable.
 */
export function deploymentProvider(c: {
  kind: 'outbox' | 'http';
  httpProviderJson?: string;
  dlrBaseUrl?: string;
  dlrSecret?: string;
  turkishShiftTable?: boolean;
}): {
  provider?: SmsProvider;
  reports: { rule: DeliveryRule; statusParam: string };
} {
  const kannel = { rule: KANNEL_DELIVERY_RULE, statusParam: 'status' };
  if (c.kind !== 'http') return { reports: kannel };
  if (!c.httpProviderJson) throw new Error('invalid configuration:\n  SMS_HTTP_PROVIDER: required when SMS_PROVIDER=http');
  const config = parseHttpProviderConfig(c.httpProviderJson);
  return {
    provider: new HttpSmsProvider({ config, dlrBaseUrl: c.dlrBaseUrl, dlrSecret: c.dlrSecret, turkishShiftTable: c.turkishShiftTable }),
    reports: config.dlr
      ? {
          rule: {
            delivered: config.dlr.delivered,
            failed: config.dlr.failed,
            ...(config.dlr.error_param && { errorParam: config.dlr.error_param }),
            ...(config.dlr.description_param && { descriptionParam: config.dlr.description_param }),
          },
          statusParam: config.dlr.status_param,
        }
      : kannel,
  };
}

/** The deployment's provider, how its delivery reports read, and the secret their callback URLs are signed with. */
export function deploymentSms(config: MessagingEnv, logger: Logger) {
  // Without a configured secret the callback URLs of this process are signed with a random one:
  // reports for messages sent before a restart are then refused (and logged).
  const dlrSecret = config.DLR_SECRET ?? randomBytes(32).toString('base64url');
  if (!config.DLR_SECRET) logger.warn('DLR_SECRET unset: delivery reports do not survive a restart');
  const sms = deploymentProvider({
    kind: config.SMS_PROVIDER,
    httpProviderJson: config.SMS_HTTP_PROVIDER,
    dlrBaseUrl: config.DLR_PUBLIC_URL,
    dlrSecret,
    turkishShiftTable: config.SMS_TURKISH_SHIFT_TABLE,
  });
  return { ...sms, dlrSecret };
}
export type DeploymentSms = ReturnType<typeof deploymentSms>;

/** Each account's provider: its own when it has one (sent through HTTP, `counted` as made), else the deployment's. */
export function accountProviderResolver(o: {
  accountProviders: AccountProviderRepository;
  deployment: SmsProvider;
  own: AccountProvidersConfig;
  counted: (provider: SmsProvider) => SmsProvider;
}): CachedProviderResolver {
  return new CachedProviderResolver({
    accountProviders: o.accountProviders,
    deployment: o.deployment,
    ttlMs: o.own.cacheMs,
    // Validated again as read: settings stored under an older, looser schema fail here, not at the provider.
    build: (settings) => {
      const config = accountProviderConfigSchema.parse(settings);
      const provider = new HttpSmsProvider({
        config,
        name: 'account-http',
        dlrBaseUrl: o.own.dlrBaseUrl,
        dlrSecret: o.own.dlrSecret,
        turkishShiftTable: config.turkish_shift_table,
      });
      return o.counted(provider);
    },
  });
}
