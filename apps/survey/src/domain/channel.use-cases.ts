import { AppError, errors } from '@feedback/kit-core';
import { CHANNEL_LIMITS, type Channel, type NewChannel } from './channel.js';
import { isUuid } from './ids.js';
import type { SurveyDeps } from './ports.js';

type Deps = Pick<SurveyDeps, 'channels' | 'flows' | 'newId' | 'clock' | 'config'>;

function checkNewChannel(input: NewChannel, config: Deps['config']): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = input.name.trim();
  if (name === '') problems.name = 'is required';
  else if (name.length > CHANNEL_LIMITS.nameLength) problems.name = `must be at most ${CHANNEL_LIMITS.nameLength} characters`;
  if (input.nodeId.trim() === '' || input.nodeId.length > CHANNEL_LIMITS.idLength) problems.node_id = 'is required';
  if (input.nodeName.trim() === '') problems.node_name = 'is required';
  if (!isUuid(input.flowId)) problems.flow_id = 'must be a UUID';
  const ttl = input.linkTtlDays || config.defaultLinkTtlDays;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > CHANNEL_LIMITS.maxTtlDays)
    problems.link_ttl_days = `must be 1-${CHANNEL_LIMITS.maxTtlDays} days`;
  return problems;
}

/** The node is the gateway's (it checked the account); the flow is checked here with the flow service. */
export async function createChannel(deps: Deps, accountId: string, input: NewChannel): Promise<Channel> {
  const problems = checkNewChannel(input, deps.config);
  if (Object.keys(problems).length > 0) throw errors.invalid(problems, 'Invalid channel');
  const flowId = input.flowId.toLowerCase();
  const flow = await deps.flows.get(accountId, flowId);
  if (!flow) throw errors.notFound('flow_id', input.flowId);
  const channel: Channel = {
    id: deps.newId(),
    accountId,
    name: input.name.trim(),
    nodeId: input.nodeId,
    nodeName: input.nodeName.trim(),
    flowId,
    flowName: flow.name,
    linkTtlDays: input.linkTtlDays || deps.config.defaultLinkTtlDays,
    kind: input.kind,
    createdAt: deps.clock.now(),
  };
  await deps.channels.insert(channel);
  return channel;
}

/** Unknown, malformed and other accounts' channel ids all answer the same not-found. */
export async function getChannel(deps: Pick<SurveyDeps, 'channels'>, accountId: string, channelId: string): Promise<Channel> {
  const channel = isUuid(channelId) ? await deps.channels.findById(accountId, channelId.toLowerCase()) : null;
  if (!channel) throw new AppError('not_found', undefined, { channel_id: channelId });
  return channel;
}

export const listChannels = (deps: Pick<SurveyDeps, 'channels'>, accountId: string) => deps.channels.list(accountId);
