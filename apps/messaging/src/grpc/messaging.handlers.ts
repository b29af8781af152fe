import { unary } from '@feedback/kit-grpc';
import type { AcceptGate } from '../intake/adapters/accept-gate.js';
import type { MessagingServiceServer } from '@feedback/proto/feedback/messaging/v1/messaging';
import { deleteAccountProvider, getAccountProvider, putAccountProvider } from '../providers/domain/account-provider.use-cases.js';
import { createCampaign, listCampaigns, updateCampaign } from '../campaigns/domain/campaign.use-cases.js';
import { cancelSharing } from '../intake/domain/sharing-cancel.use-cases.js';
import { bindDirectory, listBindings, unbindDirectory } from '../csv-workflow/domain/directory-binding.use-cases.js';
import { addOptOuts, listOptOuts, removeOptOut } from '../opt-outs/domain/opt-out.use-cases.js';
import { listRecordedMessages } from '../status/domain/recorded-messages.use-cases.js';
import type { MessagingFeatures } from '../features.js';
import { getSharingStatus } from '../status/domain/sharing-status.use-cases.js';
import { listSharingRecipients } from '../status/domain/sharing-recipients.use-cases.js';
import { createSharing } from '../intake/domain/sharing.use-cases.js';
import { listSharingsWithTotals } from '../reports/domain/sharing-totals.use-cases.js';
import { getCampaignReport } from '../reports/domain/campaign-report.use-cases.js';
import { previewSmsMessage } from '../intake/domain/sms-preview.use-cases.js';
import {
  bindingMessage,
  campaignAnswer,
  campaignReportMessage,
  campaignCommand,
  campaignUpdate,
  campaignsMessage,
  optOutsMessage,
  providerMessage,
  recordedMessagesMessage,
  rejectedMessages,
  sharingCommand,
  sharingRecipientsMessage,
  sharingStatusMessage,
  sharingsMessage,
} from './messaging.messages.js';

/**
 * Thin: decode, call one use case (each feature's with its own deps), encode. Errors are mapped by
 * kit-grpc. A sharing is accepted through the gate (accept-gate.ts).
 */
export function messagingHandlers(features: MessagingFeatures, gate: AcceptGate): MessagingServiceServer {
  const { campaigns, intake, csvWorkflow, providers, optOuts, status, reportReads } = features;
  return {
    createSmsCampaign: unary(async (req) => campaignAnswer(campaigns, await createCampaign(campaigns, campaignCommand(req)))),
    updateSmsCampaign: unary(async (req) => campaignAnswer(campaigns, await updateCampaign(campaigns, campaignUpdate(req)))),
    previewSmsMessage: unary(async (req) => previewSmsMessage(intake, req)),
    listSmsCampaigns: unary(async (req) => campaignsMessage(await listCampaigns(campaigns, req))),
    createSmsSharing: unary(async (req) => {
      const s = await gate.during(() => createSharing(intake, sharingCommand(req)));
      return {
        sharingId: s.id,
        accepted: s.accepted,
        rejected: s.rejected,
        duplicate: s.duplicate,
        rejectedPhones: rejectedMessages(s.rejectedPhones),
        scheduledFor: s.scheduledFor?.toISOString() ?? '',
      };
    }),
    cancelSmsSharing: unary(async (req) => {
      const c = await cancelSharing(intake, req.accountId, req.sharingId);
      return { cancelled: c.cancelled, alreadySent: c.alreadySent };
    }),
    getSmsSharing: unary(async (req) => {
      return sharingStatusMessage(await getSharingStatus(status, req.accountId, req.sharingId));
    }),
    listSmsSharings: unary(async (req) => sharingsMessage(await listSharingsWithTotals(reportReads, req))),
    listSharingRecipients: unary(async (req) =>
      sharingRecipientsMessage(await listSharingRecipients({ ...status, tallies: reportReads.tallies }, req)),
    ),
    getCampaignReport: unary(async (req) => campaignReportMessage(await getCampaignReport(reportReads, req))),
    listSmsMessages: unary(async (req) => {
      const page = await listRecordedMessages(status, req);
      return recordedMessagesMessage(page);
    }),
    bindDirectory: unary(async (req) => ({ binding: bindingMessage(await bindDirectory(csvWorkflow, req)) })),
    listDirectoryBindings: unary(async (req) => ({ bindings: (await listBindings(csvWorkflow, req)).map(bindingMessage) })),
    unbindDirectory: unary(async (req) => {
      await unbindDirectory(csvWorkflow, req);
      return {};
    }),
    putSmsProvider: unary(async (req) => ({ provider: providerMessage(await putAccountProvider(providers, req)) })),
    getSmsProvider: unary(async (req) => ({ provider: providerMessage(await getAccountProvider(providers, req)) })),
    deleteSmsProvider: unary(async (req) => {
      await deleteAccountProvider(providers, req);
      return {};
    }),
    addSmsOptOuts: unary(async (req) => addOptOuts(optOuts, req)),
    listSmsOptOuts: unary(async (req) => {
      const page = await listOptOuts(optOuts, req);
      return optOutsMessage(page);
    }),
    deleteSmsOptOut: unary(async (req) => {
      await removeOptOut(optOuts, req);
      return {};
    }),
  };
}
