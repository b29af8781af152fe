import type { Page } from '@feedback/kit-core';
import type {
  Attributes,
  CreateSmsCampaignRequest,
  UpdateSmsCampaignRequest,
  CreateSmsSharingRequest,
  DirectoryBinding as DirectoryBindingMessage,
  GetCampaignReportResponse,
  GetSmsSharingResponse,
  ListSmsMessagesResponse,
  ListSmsCampaignsResponse,
  ListSmsOptOutsResponse,
  ListSmsSharingsResponse,
  ListSharingRecipientsResponse,
  RecipientStatus as RecipientStatusMessage,
  SmsSharingSummary,
  RejectedPhone as RejectedPhoneMessage,
  ReportTotals as ReportTotalsMessage,
  SmsCampaign as SmsCampaignMessage,
  SmsError,
  SmsProvider as SmsProviderMessage,
} from '@feedback/proto/feedback/messaging/v1/messaging';
import type { AccountProvider } from '../providers/domain/account-provider.js';
import type { DirectoryBinding } from '../csv-workflow/domain/directory-binding.js';
import type { RecipientStatus, SharingStatus } from '../status/domain/sharing-status.use-cases.js';
import type { SharingRecipientsPage } from '../status/domain/sharing-recipients.use-cases.js';
import type { RejectedPhone, SmsCampaign } from '../shared/domain/sharing.js';
import type { CreateSharingCommand } from '../intake/domain/sharing.use-cases.js';
import type { ListedSharingTotals } from '../reports/domain/sharing-totals.use-cases.js';
import type { CampaignReport } from '../reports/domain/campaign-report.use-cases.js';
import { zeroTotals, type ReportTotals } from '../reports/domain/report-totals.js';
import type { CreateCampaignCommand, UpdateCampaignCommand } from '../campaigns/domain/campaign.use-cases.js';
import type { CampaignDeps } from '../campaigns/ports.js';
import type { OptOutPage } from '../opt-outs/domain/opt-out.js';
import type { RecordedMessagePage } from '../status/ports.js';
import type { DeliveryError } from '../shared/domain/sms-message.js';
import { campaignWarnings } from '../intake/domain/sms-preview.use-cases.js';

export function campaignMessage(c: SmsCampaign): SmsCampaignMessage {
  return {
    id: c.id,
    accountId: c.accountId,
    name: c.name,
    nodeId: c.nodeId,
    flowId: c.flowId,
    channelId: c.channelId,
    messageTemplate: c.messageTemplate,
    createdAt: c.createdAt.toISOString(),
    sendWindow: c.sendWindow
      ? { start: c.sendWindow.start, end: c.sendWindow.end, timeZone: c.sendWindow.timeZone, days: c.sendWindow.days }
      : undefined,
    reminders: c.reminders.map((r) => ({ after: r.after, messageTemplate: r.messageTemplate ?? '' })),
    transliterate: c.transliterate,
  };
}

/** A created or updated campaign with what its template costs more than it seems. */
/** The campaign with what its templates cost when it is more than it seems (sms-preview.use-cases.ts). */
export function campaignAnswer(deps: Pick<CampaignDeps, 'settings'>, c: SmsCampaign): { campaign: SmsCampaignMessage; warnings: string[] } {
  return { campaign: campaignMessage(c), warnings: campaignWarnings(deps, c) };
}

export function campaignCommand(req: CreateSmsCampaignRequest): CreateCampaignCommand {
  return { ...req, reminders: req.reminders, sendWindow: req.sendWindow };
}

/** Only the fields the request says to update. */
export function campaignUpdate(req: UpdateSmsCampaignRequest): UpdateCampaignCommand {
  return {
    accountId: req.accountId,
    campaignId: req.campaignId,
    ...(req.updateSendWindow && { sendWindow: req.sendWindow ?? null }),
    ...(req.updateReminders && { reminders: req.reminders }),
    ...(req.transliterate !== undefined && { transliterate: req.transliterate }),
  };
}

/** The typed command of a CreateSmsSharing request; the use case checks its rules. */
export function sharingCommand(req: CreateSmsSharingRequest): CreateSharingCommand {
  return {
    accountId: req.accountId,
    campaignId: req.campaignId,
    phoneNumbers: req.phoneNumbers,
    customAttributes: perPhone(req.customAttributes),
    builtInResponses: perPhone(req.builtInResponses),
    requestKey: req.requestKey || undefined,
    sendAt: req.sendAt || undefined,
  };
}

const perPhone = (map: { [phone: string]: Attributes }): Record<string, Record<string, string>> =>
  Object.fromEntries(Object.entries(map).map(([phone, a]) => [phone, a.values]));

export function sharingStatusMessage({ sharing, recipients, counts, segments, funnel }: SharingStatus): GetSmsSharingResponse {
  return {
    sharingId: sharing.id,
    campaignId: sharing.campaignId,
    createdAt: sharing.createdAt.toISOString(),
    accepted: sharing.accepted,
    duplicate: sharing.duplicates,
    rejectedPhones: rejectedMessages(sharing.rejected),
    recipients: recipients.map(recipientMessage),
    counts: {
      scheduled: counts.scheduled,
      queued: counts.queued,
      sending: counts.sending,
      sent: counts.sent,
      delivered: counts.delivered,
      failed: counts.failed,
      optedOut: counts.opted_out,
      cancelled: counts.cancelled,
      other: counts.other,
    },
    segments,
    funnel,
    scheduledFor: sharing.scheduledFor?.toISOString() ?? '',
    cancelledAt: sharing.cancelledAt?.toISOString() ?? '',
  };
}

const recipientMessage = (r: RecipientStatus): RecipientStatusMessage => ({
  phone: r.phone,
  status: r.status,
  error: r.error ?? '',
  ...(r.deliveryError && { errorDetail: smsErrorMessage(r.deliveryError) }),
  updatedAt: r.updatedAt?.toISOString() ?? '',
  encoding: r.encoding ?? '',
  segments: r.segments,
  reminders: r.reminders.map((m) => ({ ...m, updatedAt: m.updatedAt.toISOString() })),
});

/** A page of a sharing's recipients, with the sharing as ListSmsSharings lists it. */
export function sharingRecipientsMessage(p: SharingRecipientsPage): ListSharingRecipientsResponse {
  return {
    sharing: sharingSummaryMessage({ sharing: p.sharing, status: p.state, totals: p.totals ?? zeroTotals() }),
    recipients: p.recipients.map(recipientMessage),
    nextPageToken: p.nextPageToken,
  };
}

export function rejectedMessages(rejected: RejectedPhone[]): RejectedPhoneMessage[] {
  return rejected.map((r) => ({ phone: r.phone, reason: r.reason, row: r.row ?? 0 }));
}

export function bindingMessage(b: DirectoryBinding): DirectoryBindingMessage {
  return {
    accountId: b.accountId,
    campaignId: b.campaignId,
    directoryId: b.directoryId,
    fileName: b.fileName,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** Settings as the use cases answer them: masked already. */
export function providerMessage(p: AccountProvider): SmsProviderMessage {
  return { configJson: JSON.stringify(p.settings), createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() };
}

export function recordedMessagesMessage(page: RecordedMessagePage): ListSmsMessagesResponse {
  return {
    messages: page.items.map((m) => ({
      messageId: m.messageId,
      sharingId: m.sharingId,
      phone: m.phone,
      text: m.text,
      status: m.status,
      createdAt: m.createdAt.toISOString(),
      encoding: m.encoding ?? '',
      segments: m.segments ?? 0,
      error: m.error ?? '',
      ...(m.deliveryError && { errorDetail: smsErrorMessage(m.deliveryError) }),
    })),
    nextPageToken: page.nextPageToken,
  };
}

const smsErrorMessage = (e: DeliveryError): SmsError => ({ status: e.status, code: e.code ?? '', description: e.description ?? '' });

export function campaignsMessage(page: Page<SmsCampaign>): ListSmsCampaignsResponse {
  return { campaigns: page.items.map(campaignMessage), nextPageToken: page.nextPageToken };
}

export function sharingsMessage(page: Page<ListedSharingTotals>): ListSmsSharingsResponse {
  return {
    sharings: page.items.map(sharingSummaryMessage),
    nextPageToken: page.nextPageToken,
  };
}

const sharingSummaryMessage = ({ sharing: s, status, totals }: ListedSharingTotals): SmsSharingSummary => ({
  sharingId: s.id,
  campaignId: s.campaignId,
  createdAt: s.createdAt.toISOString(),
  status,
  accepted: s.accepted,
  rejected: s.rejected.length,
  duplicate: s.duplicates,
  scheduledFor: s.scheduledFor?.toISOString() ?? '',
  cancelledAt: s.cancelledAt?.toISOString() ?? '',
  completedAt: s.completedAt?.toISOString() ?? '',
  totals: totalsMessage(totals),
});

const totalsMessage = (t: ReportTotals): ReportTotalsMessage => ({ ...t });

/** Rates and the NPS score unset (not 0) when there is nothing to divide by. */
export function campaignReportMessage(r: CampaignReport): GetCampaignReportResponse {
  const { score, ...nps } = r.nps;
  return {
    campaignId: r.campaignId,
    campaignName: r.campaignName,
    totals: totalsMessage(r.totals),
    rates: {
      ...(r.rates.delivery !== null && { delivery: r.rates.delivery }),
      ...(r.rates.click !== null && { click: r.rates.click }),
      ...(r.rates.response !== null && { response: r.rates.response }),
    },
    nps: { ...nps, ...(score !== null && { score }) },
    series: r.series,
    from: r.from.toISOString(),
    to: r.to.toISOString(),
    interval: r.interval,
    timeZone: r.timeZone,
  };
}

export function optOutsMessage(page: OptOutPage): ListSmsOptOutsResponse {
  return {
    optOuts: page.items.map((o) => ({ phone: o.phone, source: o.source, createdAt: o.createdAt.toISOString() })),
    nextPageToken: page.nextPageToken,
  };
}
