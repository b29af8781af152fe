import type { Clock } from '@feedback/kit-core';
import type { ConsoleSessions } from '../accounts/domain/people.js';
import type { PeopleDeps } from '../accounts/domain/people.ports.js';
import type { AccountDirectory, AccountRepository, AccountsDeps } from '../accounts/domain/ports.js';
import type { SmsLimitsPort, SmsUsagePort } from '../api/sms-limits/sms-limits.port.js';
import type { FilesPort } from '../api/files/files.port.js';
import type { FlowQuestionsPort, ResponsesPort } from '../api/responses/responses.port.js';
import type { SmsPort } from '../api/sms/sms.port.js';
import type { WebhooksPort } from '../api/webhooks/webhooks.port.js';
import type { ApiFeature } from '../http/api-feature.js';
import { consoleRoutes } from './console.routes.js';
import type { ConsoleSso } from './sso.port.js';

/** What the console's pages read and do, through the same messaging calls as the API. */
export type ConsoleSmsPort = Pick<
  SmsPort,
  'listSmsCampaigns' | 'getCampaignReport' | 'listSmsSharings' | 'listSharingRecipients' | 'cancelSmsSharing'
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
  /** SMS_CANCEL_DEADLINE_MS, as the API's cancel. */
  cancelDeadlineMs?: number;
  clock: Clock;
  /** Uploads: the file service's upload path and a bound file's outcome (absent: no upload pages). */
  files?: ConsoleFilesPort;
  /** MAX_UPLOAD_BYTES, as the file API's upload. */
  maxUploadBytes?: number;
  /** The directory bindings (uploads) and the opt-out list, through the messaging calls of the API. */
  smsData?: ConsoleSmsDataPort;
  /** Responses: list, one, CSV export (absent: no response pages). */
  responses?: ConsoleResponsesPort;
  flows?: FlowQuestionsPort;
  /** Webhook endpoints and deliveries (absent: no webhook pages). */
  webhooks?: ConsoleWebhooksPort;
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

export type ConsoleFilesPort = Pick<FilesPort, 'startUpload' | 'getFile' | 'listDirectories'>;
export type ConsoleSmsDataPort = Pick<SmsPort, 'listDirectoryBindings' | 'addSmsOptOuts' | 'listSmsOptOuts' | 'deleteSmsOptOut'>;
export type ConsoleResponsesPort = Pick<ResponsesPort, 'listResponses' | 'getResponse'>;
export type ConsoleWebhooksPort = Pick<
  WebhooksPort,
  'createEndpoint' | 'getEndpoint' | 'listEndpoints' | 'updateEndpoint' | 'rotateSecret' | 'listDeliveries' | 'replayDelivery'
>;

/** The console at /console/ (docs/api.md "Console"): server-rendered pages for the people of an account and the operators. */
export function consoleFeature(deps: ConsoleDeps): ApiFeature {
  return { routes: () => consoleRoutes(deps) };
}
