import { errors, pageQueryOf, type Page, type PageRequest, type PageRule } from '@feedback/kit-core';
import { checkTemplate, remindersOf, sendWindowOf, type SendWindowInput } from './campaign-rules.js';
import type { CampaignDeps } from '../ports.js';
import type { SmsCampaign } from '../../shared/domain/sharing.js';

type Deps = Pick<CampaignDeps, 'campaigns' | 'channels' | 'clock' | 'newId'>;

/** A reminder as a caller gives it: an empty template means the campaign's. */
export interface ReminderInput {
  after: string;
  messageTemplate: string;
}

export interface CreateCampaignCommand {
  accountId: string;
  name: string;
  nodeId: string;
  nodeName: string;
  flowId: string;
  messageTemplate: string;
  linkTtlDays: number;
  sendWindow?: SendWindowInput;
  reminders?: ReminderInput[];
  transliterate?: boolean;
}

/**
 * An SMS campaign is a survey channel (which hands out the personal links) plus a template and
 * its delivery rules. Everything is checked before the channel is created, and the channel
 * before the campaign: a failure there (unknown flow) leaves no half campaign.
 */
export async function createCampaign(deps: Deps, cmd: CreateCampaignCommand): Promise<SmsCampaign> {
  const name = cmd.name.trim();
  if (!name || name.length > 200) throw errors.invalid({ name: 'must be 1-200 characters' });
  checkTemplate(cmd.messageTemplate, 'message_template');
  if (!cmd.nodeId) throw errors.invalid({ node_id: 'is required' });
  if (!cmd.flowId) throw errors.invalid({ flow_id: 'is required' });
  const sendWindow = sendWindowOf(cmd.sendWindow);
  const reminders = remindersOf(cmd.reminders ?? []);

  const channelId = await deps.channels.createSmsChannel({
    accountId: cmd.accountId,
    name,
    nodeId: cmd.nodeId,
    nodeName: cmd.nodeName,
    flowId: cmd.flowId,
    linkTtlDays: cmd.linkTtlDays,
  });
  const campaign: SmsCampaign = {
    id: deps.newId(),
    accountId: cmd.accountId,
    name,
    nodeId: cmd.nodeId,
    flowId: cmd.flowId,
    channelId,
    messageTemplate: cmd.messageTemplate,
    createdAt: deps.clock.now(),
    sendWindow,
    reminders,
    transliterate: cmd.transliterate ?? false,
  };
  await deps.campaigns.insert(campaign);
  return campaign;
}

/** ListSmsCampaigns' pages: the size of the other lists of the API. */
export const CAMPAIGNS_PAGE: PageRule = { list: 'sms_campaigns', default: 50, max: 200 };

/** The account's campaigns, newest first, a page at a time (a token of another list is INVALID_ARGUMENT). */
export async function listCampaigns(
  deps: Pick<CampaignDeps, 'campaigns'>,
  q: { accountId: string } & Partial<PageRequest>,
): Promise<Page<SmsCampaign>> {
  return deps.campaigns.page(q.accountId, pageQueryOf(q, CAMPAIGNS_PAGE));
}

/** What an update changes; an absent field stays as it is (`sendWindow: null` clears it). */
export interface UpdateCampaignCommand {
  accountId: string;
  campaignId: string;
  sendWindow?: SendWindowInput | null;
  reminders?: ReminderInput[];
  transliterate?: boolean;
}

/**
 * Changes a campaign's delivery rules. Sharings already made follow the new window and
 * reminders from their next step on (a reminder not yet due uses the campaign as it then is).
 */
export async function updateCampaign(deps: Pick<CampaignDeps, 'campaigns'>, cmd: UpdateCampaignCommand): Promise<SmsCampaign> {
  const found = await deps.campaigns.findById(cmd.accountId, cmd.campaignId);
  if (!found) throw errors.notFound('campaign_id', cmd.campaignId);
  const changes: Partial<Pick<SmsCampaign, 'sendWindow' | 'reminders' | 'transliterate'>> = {};
  if (cmd.sendWindow !== undefined) changes.sendWindow = sendWindowOf(cmd.sendWindow ?? undefined);
  if (cmd.reminders !== undefined) changes.reminders = remindersOf(cmd.reminders);
  if (cmd.transliterate !== undefined) changes.transliterate = cmd.transliterate;
  const updated = await deps.campaigns.update(cmd.accountId, cmd.campaignId, changes);
  if (!updated) throw errors.notFound('campaign_id', cmd.campaignId);
  return updated;
}
