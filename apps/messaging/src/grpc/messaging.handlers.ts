import { unary } from '@feedback/kit-grpc';
import type { AcceptGate } from '../intake/adapters/accept-gate.js';
import type { MessagingServiceServer } from '@feedback/proto/feedback/messaging/v1/messaging';
import { deleteAccountProvider, getAccountProvider, putAccountProvider } from '../providers/domain/account-provider.use-cases.js';
import { createCampaign, updateCampaign } from '../campaigns/domain/campaign.use-cases.js';
import { cancelSharing } from '../intake/domain/sharing-cancel.use-cases.js';
import { bindDirectory, listBindings, unbindDirectory } from '../csv-workflow/domain/directory-binding.use-cases.js';
import { addOptOuts, listOptOuts, removeOptOut } from '../opt-outs/domain/opt-out.use-cases.js';
import { listRecordedMessages } from '../status/domain/recorded-messages.use-cases.js';
import type { MessagingDeps } from '../shared/ports.js';
import { getSharingStatus } from '../status/domain/sharing-status.use-cases.js';
import { createSharing } from '../intake/domain/sharing.use-cases.js';
import { previewSmsMessage } from '../intake/domain/sms-preview.use-cases.js';
import {
  bindingMessage,
  campaignAnswer,
  campaignCommand,
  campaignMessage,
  campaignUpdate,
  providerMessage,
  rejectedMessages,
  sharingCommand,
  sharingStatusMessage,
} from './messaging.messages.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. A sharing is accepted through the gate (accept-gate.ts). */
export function messagingHandlers(deps: MessagingDeps, gate: AcceptGate): MessagingServiceServer {
  return {
    createSmsCampaign: unary(async (req) => campaignAnswer(deps, await createCampaign(deps, campaignCommand(req)))),
    updateSmsCampaign: unary(async (req) => campaignAnswer(deps, await updateCampaign(deps, campaignUpdate(req)))),
    previewSmsMessage: unary(async (req) => previewSmsMessage(deps, req)),
    listSmsCampaigns: unary(async (req) => ({
      campaigns: (await deps.campaigns.listByAccount(req.accountId, 1_000)).map(campaignMessage),
    })),
    createSmsSharing: unary(async (req) => {
      const s = await gate.during(() => createSharing(deps, sharingCommand(req)));
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
      const c = await cancelSharing(deps, req.accountId, req.sharingId);
      return { cancelled: c.cancelled, alreadySent: c.alreadySent };
    }),
    getSmsSharing: unary(async (req) => {
      return sharingStatusMessage(await getSharingStatus(deps, req.accountId, req.sharingId));
    }),
    listSmsMessages: unary(async (req) => {
      const page = await listRecordedMessages(deps, {
        accountId: req.accountId,
        phone: req.phone,
        limit: req.limit || undefined,
        cursor: req.cursor || undefined,
      });
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
        })),
        nextCursor: page.nextCursor ?? '',
      };
    }),
    bindDirectory: unary(async (req) => ({ binding: bindingMessage(await bindDirectory(deps, req)) })),
    listDirectoryBindings: unary(async (req) => ({ bindings: (await listBindings(deps, req)).map(bindingMessage) })),
    unbindDirectory: unary(async (req) => {
      await unbindDirectory(deps, req);
      return {};
    }),
    putSmsProvider: unary(async (req) => ({ provider: providerMessage(await putAccountProvider(deps, req)) })),
    getSmsProvider: unary(async (req) => ({ provider: providerMessage(await getAccountProvider(deps, req)) })),
    deleteSmsProvider: unary(async (req) => {
      await deleteAccountProvider(deps, req);
      return {};
    }),
    addSmsOptOuts: unary(async (req) => addOptOuts(deps, req)),
    listSmsOptOuts: unary(async (req) => {
      const page = await listOptOuts(deps, {
        accountId: req.accountId,
        phone: req.phone,
        limit: req.limit || undefined,
        cursor: req.cursor || undefined,
      });
      return {
        optOuts: page.items.map((o) => ({ phone: o.phone, source: o.source, createdAt: o.createdAt.toISOString() })),
        nextCursor: page.nextCursor ?? '',
      };
    }),
    deleteSmsOptOut: unary(async (req) => {
      await removeOptOut(deps, req);
      return {};
    }),
  };
}
