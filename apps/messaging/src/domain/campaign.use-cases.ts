import { errors } from '@feedback/kit-core';
import type { MessagingDeps } from './ports.js';
import type { SmsCampaign } from './sharing.js';
import { templateNames } from './sms-template.js';

type Deps = Pick<MessagingDeps, 'campaigns' | 'channels' | 'clock' | 'newId'>;

export interface CreateCampaignCommand {
  accountId: string;
  name: string;
  nodeId: string;
  nodeName: string;
  flowId: string;
  messageTemplate: string;
  linkTtlDays: number;
}

/** An SMS is at most 10 concatenated parts in practice; a longer template is a mistake. */
const MAX_TEMPLATE_LENGTH = 1_000;

/**
 * An SMS campaign is a survey channel (which hands out the personal links) plus a template.
 * The channel is created first: a failure there (unknown flow) leaves no half campaign.
 */
export async function createCampaign(deps: Deps, cmd: CreateCampaignCommand): Promise<SmsCampaign> {
  const name = cmd.name.trim();
  if (!name || name.length > 200) throw errors.invalid({ name: 'must be 1-200 characters' });
  const template = cmd.messageTemplate;
  if (!template.trim() || template.length > MAX_TEMPLATE_LENGTH)
    throw errors.invalid({ message_template: `must be 1-${MAX_TEMPLATE_LENGTH} characters` });
  // Without the link the SMS cannot lead to the survey.
  if (!templateNames(template).includes('link')) throw errors.invalid({ message_template: 'must contain {{link}}' });
  if (!cmd.nodeId) throw errors.invalid({ node_id: 'is required' });
  if (!cmd.flowId) throw errors.invalid({ flow_id: 'is required' });

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
    messageTemplate: template,
    createdAt: deps.clock.now(),
  };
  await deps.campaigns.insert(campaign);
  return campaign;
}
