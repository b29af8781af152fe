import { appErrorToStatus } from '@feedback/kit-grpc';
import type { Flow as FlowMessage } from '@feedback/proto/feedback/flow/v1/flow';
import {
  ChannelKind,
  LinkState,
  type ActivateSurveyLinkRequest,
  type ActivateSurveyLinkResult,
  type Answer,
  type Channel as ChannelMessage,
  type SurveyResponse as ResponseMessage,
} from '@feedback/proto/feedback/survey/v1/survey';
import { status } from '@grpc/grpc-js';
import type { ActivationRequest } from '../domain/activation.use-cases.js';
import type { ActivationOutcome } from '../domain/activation-batch.use-cases.js';
import type { Channel, ChannelKind as DomainChannelKind } from '../domain/channel.js';
import type { Flow } from '../domain/flow.js';
import type { LinkState as DomainLinkState } from '../domain/link.js';
import type { PhoneLinkState } from '../domain/link-states.use-cases.js';
import type { NpsQuestionSummary, NpsSlice } from '../domain/nps.use-cases.js';
import type { AnswerValue, ListedResponse, SurveyResponse } from '../domain/response.js';

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

/** A phone without a link of the channel answers UNSPECIFIED (GetSurveyLinkStates). */
export const phoneStateMessage: Record<PhoneLinkState, LinkState> = { ...stateMessage, none: LinkState.LINK_STATE_UNSPECIFIED };

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

const answerMessage = (a: AnswerValue): Answer => ({
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
  ...(r.context
    ? {
        context: {
          campaignId: r.context.campaignId ?? '',
          sharingId: r.context.sharingId ?? '',
          messageId: r.context.messageId ?? '',
          customAttributes: r.context.customAttributes,
        },
      }
    : {}),
});

/** A response of the responses API: with its customer's identifiers ('' for one the customer lacks). */
export const listedResponseMessage = ({ response, customer }: ListedResponse): ResponseMessage => ({
  ...responseMessage(response),
  ...(customer ? { customer: { externalId: customer.externalId ?? '', email: customer.email ?? '', phone: customer.phone ?? '' } } : {}),
});

const sliceMessage = ({ score, ...t }: NpsSlice) => ({ ...t, ...(score !== null ? { score } : {}) });

export const npsQuestionMessage = ({ score, series, groups, ...t }: NpsQuestionSummary) => ({
  ...t,
  ...(score !== null ? { score } : {}),
  series: (series ?? []).map(sliceMessage),
  groups: (groups ?? []).map(sliceMessage),
});

const EMPTY_CUSTOMER = { phoneNumber: '', email: '', externalId: '', name: '', schema: {} };

export const activationRequest = (req: ActivateSurveyLinkRequest): ActivationRequest => ({
  accountId: req.accountId,
  channelId: req.channelId,
  customer: { ...EMPTY_CUSTOMER, ...req.customer },
  customAttributes: req.customAttributes,
  builtInResponses: req.builtInResponses,
  campaignId: req.campaignId,
  sharingId: req.sharingId,
  messageId: req.messageId,
});

/** A failed item carries the status name its call alone would have had, and the fields in its message. */
export function activationResult(outcome: ActivationOutcome): ActivateSurveyLinkResult {
  if ('ok' in outcome) {
    const { customer, link, url } = outcome.ok;
    return { linkUrl: url, customerId: customer.id, linkId: link.id, errorCode: '', errorMessage: '' };
  }
  const fields = Object.entries(outcome.error.fields).map(([field, why]) => `${field}: ${why}`);
  return {
    linkUrl: '',
    customerId: '',
    linkId: '',
    errorCode: status[appErrorToStatus(outcome.error).code] ?? 'UNKNOWN',
    errorMessage: fields.length > 0 ? `${outcome.error.message} (${fields.join('; ')})` : outcome.error.message,
  };
}
