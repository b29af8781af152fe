import { errors } from '@feedback/kit-core';
import { unary } from '@feedback/kit-grpc';
import type { SurveyServiceServer } from '@feedback/proto/feedback/survey/v1/survey';
import { activateSurveyLink } from '../domain/activation.use-cases.js';
import { activateSurveyLinks } from '../domain/activation-batch.use-cases.js';
import { listActiveSurveys } from '../domain/active-surveys.use-cases.js';
import { surveyLinkStates } from '../domain/link-states.use-cases.js';
import { createChannel, getChannel, listChannels } from '../domain/channel.use-cases.js';
import type { ErasureDeps } from '../domain/data-erasure.js';
import { getDataErasure, requestDataErasure } from '../domain/data-erasure.use-cases.js';
import type { SurveyDeps } from '../domain/ports.js';
import { npsSummary } from '../domain/nps.use-cases.js';
import { getResponse, listResponses } from '../domain/responses.use-cases.js';
import { getSurveyPage, submitAnswers } from '../domain/survey-page.use-cases.js';
import { erasureMessage } from './data-erasure.messages.js';
import {
  activationRequest,
  activationResult,
  answerValue,
  channelMessage,
  flowMessage,
  kindOf,
  listedResponseMessage,
  npsQuestionMessage,
  phoneStateMessage,
  stateMessage,
} from './survey.messages.js';

const notWired = (): never => {
  throw errors.internal('data erasure is not wired in this process');
};

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
/** `erasureDeps` may be left out where erasure is not under test (its two calls then answer INTERNAL). */
export function surveyHandlers(deps: SurveyDeps, erasureDeps?: ErasureDeps): SurveyServiceServer {
  const erasure = () => erasureDeps ?? notWired();
  return {
    createChannel: unary(async (req) => ({
      channel: channelMessage(
        await createChannel(deps, req.accountId, {
          name: req.name,
          nodeId: req.nodeId,
          nodeName: req.nodeName,
          flowId: req.flowId,
          linkTtlDays: req.linkTtlDays,
          kind: kindOf(req.kind),
        }),
      ),
    })),
    describeChannel: unary(async (req) => ({ channel: channelMessage(await getChannel(deps, req.accountId, req.channelId)) })),
    listChannels: unary(async (req) => ({ channels: (await listChannels(deps, req.accountId)).map(channelMessage) })),
    activateSurveyLink: unary(async (req) => {
      const a = await activateSurveyLink(deps, activationRequest(req));
      return {
        customerId: a.customer.id,
        linkId: a.link.id,
        linkToken: a.link.token,
        linkUrl: a.url,
        activatedAt: a.link.activatedAt.toISOString(),
        expiresAt: a.link.expiresAt.toISOString(),
        customerCreated: a.created,
        channelId: a.link.channelId,
      };
    }),
    activateSurveyLinks: unary(async (req) => ({
      results: (await activateSurveyLinks(deps, req.accountId, req.items.map(activationRequest))).map(activationResult),
    })),
    listActiveSurveys: unary(async (req) => ({
      surveys: (await listActiveSurveys(deps, req)).map(({ link, url }) => ({
        linkUrl: url,
        surveyName: link.flowName,
        activatedAt: link.activatedAt.toISOString(),
        nodeId: link.nodeId,
        nodeName: link.nodeName,
        channelId: link.channelId,
        channelName: link.channelName,
        flowId: link.flowId,
        expiresAt: link.expiresAt.toISOString(),
      })),
    })),
    getSurveyPage: unary(async (req) => {
      const page = await getSurveyPage(deps, req.token);
      return {
        state: stateMessage[page.state],
        flow: flowMessage(page.flow),
        customerName: page.customerName,
        language: page.language,
        builtInResponses: page.link.builtInResponses,
        activatedAt: page.link.activatedAt.toISOString(),
        expiresAt: page.link.expiresAt.toISOString(),
        ...(page.link.answeredAt ? { answeredAt: page.link.answeredAt.toISOString() } : {}),
        channelId: page.link.channelId,
        nodeName: page.link.nodeName,
        accountId: page.link.accountId,
        smsPhone: page.smsPhone,
      };
    }),
    submitAnswers: unary(async (req) => {
      const response = await submitAnswers(deps, req.token, req.answers.map(answerValue));
      return { responseId: response.id, answeredAt: response.answeredAt.toISOString() };
    }),
    listResponses: unary(async (req) => {
      const page = await listResponses(deps, req);
      return { responses: page.responses.map(listedResponseMessage), nextPageToken: page.nextPageToken };
    }),
    getResponse: unary(async (req) => ({ response: listedResponseMessage(await getResponse(deps, req.accountId, req.responseId)) })),
    getNpsSummary: unary(async (req) => ({
      questions: (await npsSummary(deps, req)).map(npsQuestionMessage),
    })),
    getSurveyLinkStates: unary(async (req) => ({ states: (await surveyLinkStates(deps, req)).map((s) => phoneStateMessage[s]) })),
    requestDataErasure: unary(async (req) => ({ erasure: erasureMessage(await requestDataErasure(erasure(), req)) })),
    getDataErasure: unary(async (req) => ({ erasure: erasureMessage(await getDataErasure(erasure(), req.accountId, req.erasureId)) })),
  };
}
