import { unary } from '@feedback/kit-grpc';
import type { AcceptGate } from '../adapters/accept-gate.js';
import type { MessagingServiceServer } from '@feedback/proto/feedback/messaging/v1/messaging';
import { deleteAccountProvider, getAccountProvider, putAccountProvider } from '../domain/account-provider.use-cases.js';
import { createCampaign } from '../domain/campaign.use-cases.js';
import { bindDirectory, listBindings, unbindDirectory } from '../domain/directory-binding.use-cases.js';
import { listRecordedMessages } from '../domain/recorded-messages.use-cases.js';
import type { MessagingDeps } from '../domain/ports.js';
import { getSharingStatus } from '../domain/sharing-status.use-cases.js';
import { createSharing } from '../domain/sharing.use-cases.js';
import {
  bindingMessage,
  campaignMessage,
  providerMessage,
  rejectedMessages,
  sharingCommand,
  sharingStatusMessage,
} from './messaging.messages.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. A sharing is accepted through the gate (accept-gate.ts). */
export function messagingHandlers(deps: MessagingDeps, gate: AcceptGate): MessagingServiceServer {
  return {
    createSmsCampaign: unary(async (req) => ({ campaign: campaignMessage(await createCampaign(deps, req)) })),
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
      };
    }),
    getSmsSharing: unary(async (req) => {
      const { sharing, recipients } = await getSharingStatus(deps, req.accountId, req.sharingId);
      return sharingStatusMessage(sharing, recipients);
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
  };
}
