import type { Clock } from '@feedback/kit-core';
import type { ConsoleSessions } from '../accounts/domain/people.js';
import type { PeopleDeps } from '../accounts/domain/people.ports.js';
import type { AccountDirectory, AccountRepository, AccountsDeps } from '../accounts/domain/ports.js';
import type { SmsLimitsPort, SmsUsagePort } from '../api/sms-limits/sms-limits.port.js';
import type { SmsPort } from '../api/sms/sms.port.js';
import type { ApiFeature } from '../http/api-feature.js';
import { consoleRoutes } from './console.routes.js';
import type { ConsoleSso } from './sso.port.js';

/** What the console's pages read and do, through the same messaging calls as the API. */
export type ConsoleSmsPort = Pick<
  SmsPort,
  'listSmsCampaigns' | 'getCampaignReport' | 'listSmsSharings' | 'getSmsSharing' | 'cancelSmsSharing'
>;

export interface ConsoleDeps {
  sessions: ConsoleSessions;
  sms: ConsoleSmsPort;
  /** An operator's chosen account must exist. */
  accounts: Pick<AccountRepository, 'findById'>;
  /** PUBLIC_BASE_URL: https makes the session cookie Secure; its origin is same-origin for forms behind a proxy. */
  publicBaseUrl?: string;
  /** DISPLAY_TIME_ZONE: the report's days and hours, and every date shown. */
  displayTimeZone: string;
  clock: Clock;
  /** Single sign-on with the deployment's OpenID Connect provider (OIDC_*); none: passwords only. */
  sso?: ConsoleSso;
  /** Users, tokens, accounts, SMS provider and limits (absent: no such pages). */
  admin?: ConsoleAdminDeps;
}

/** An account's users and tokens, the accounts, their SMS provider and the SMS limits: the admin API's own use cases and ports. */
export interface ConsoleAdminDeps {
  people: PeopleDeps;
  accountsAdmin: AccountsDeps;
  directory: AccountDirectory;
  smsProvider: Pick<SmsPort, 'getSmsProvider'>;
  smsLimits: SmsLimitsPort;
  smsUsage: SmsUsagePort;
}

/** The console at /console/ (docs/api.md "Console"): server-rendered pages for the people of an account and the operators. */
export function consoleFeature(deps: ConsoleDeps): ApiFeature {
  return { routes: () => consoleRoutes(deps) };
}
