import type { Flow as FlowMessage } from '@feedback/proto/feedback/flow/v1/flow';
import {
  ChannelKind,
  LinkState,
  type Answer,
  type Channel as ChannelMessage,
  type SurveyResponse as ResponseMessage,
} from '@feedback/proto/feedback/survey/v1/survey';
import type { Channel, ChannelKind as DomainChannelKind } from '../domain/channel.js';
import type { Flow } from '../domain/flow.js';
import type { LinkState as DomainLinkState } from '../domain/link.js';
import type { AnswerValue, SurveyResponse } from '../domain/response.js';

export const kindOf = (kind: ChannelKind): DomainChannelKind => (kind === ChannelKind.CHANNEL_KIND_SMS ? 'sms' : 'link');

export const channelMessage = (c: Channel): ChannelMessage => ({
  id: c.id,
  accountId: c.accountId,
  name: c.name,
  nodeId: c.nodeId,
  nodeName: c.nodeName,
  flowId: c.flowId,
  flowName: c.flowName,
  linkTtlDays: c.linkTtlDays,
  kind: c.kind === 'sms' ? ChannelKind.CHANNEL_KIND_SMS : ChannelKind.CHANNEL_KIND_LINK,
  createdAt: c.createdAt.toISOString(),
});

export const stateMessage: Record<DomainLinkState, LinkState> = {
  active: LinkState.LINK_STATE_ACTIVE,
  answered: LinkState.LINK_STATE_ANSWERED,
  expired: LinkState.LINK_STATE_EXPIRED,
};

export const flowMessage = (f: Flow): FlowMessage => ({
  id: f.id,
  accountId: f.accountId,
  name: f.name,
  createdAt: f.createdAt,
  questions: f.questions.map((q) => ({ ...q, options: q.options.map((o) => ({ ...o })) })),
});

export const answerValue = (a: Answer): AnswerValue => ({
  questionKey: a.questionKey,
  optionKeys: a.optionKeys,
  ...(a.text !== undefined ? { text: a.text } : {}),
  ...(a.number !== undefined ? { number: a.number } : {}),
});

export const answerMessage = (a: AnswerValue): Answer => ({
  questionKey: a.questionKey,
  optionKeys: a.optionKeys,
  ...(a.text !== undefined ? { text: a.text } : {}),
  ...(a.number !== undefined ? { number: a.number } : {}),
});

export const responseMessage = (r: SurveyResponse): ResponseMessage => ({
  id: r.id,
  accountId: r.accountId,
  flowId: r.flowId,
  channelId: r.channelId,
  nodeId: r.nodeId,
  customerId: r.customerId,
  linkId: r.linkId,
  answers: r.answers.map(answerMessage),
  builtInResponses: r.builtInResponses,
  answeredAt: r.answeredAt.toISOString(),
});
