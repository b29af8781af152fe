import { answersByQuestion, isoWithOffset } from '@feedback/kit-core';
import type { ActivateSurveyLinkResponse, ActiveSurvey, Channel, SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { responseContextView } from '../responses/responses.views.js';

const iso = (s: string) => isoWithOffset(new Date(s));

/** docs/api.md "Active surveys": count and surveys with exactly Link, SurveyName, LastActivationDate, UnitName. */
export function activeSurveysView(surveys: ActiveSurvey[], formatDate: (at: string) => string) {
  return {
    count: surveys.length,
    surveys: surveys.map((s) => ({
      Link: s.linkUrl,
      SurveyName: s.surveyName,
      LastActivationDate: formatDate(s.activatedAt),
      UnitName: s.nodeName,
    })),
  };
}

export const personalLinkView = (a: ActivateSurveyLinkResponse, shortLink: string | null) => ({
  customer_id: a.customerId,
  link: a.linkUrl,
  short_link: shortLink,
  activated_at: iso(a.activatedAt),
  expires_at: iso(a.expiresAt),
});

export function channelView(c: Channel | undefined) {
  if (!c) throw new Error('survey service answered without a channel');
  return { id: c.id, name: c.name, node_id: c.nodeId, flow_id: c.flowId, link_ttl_days: c.linkTtlDays, created_at: iso(c.createdAt) };
}

export const responseView = (r: SurveyResponse) => ({
  id: r.id,
  flow_id: r.flowId,
  channel_id: r.channelId,
  node_id: r.nodeId,
  customer_id: r.customerId,
  link_id: r.linkId,
  // The one answers shape (GET /v1/responses, survey.answered): keyed by question.
  answers: answersByQuestion(r.answers),
  built_in_responses: r.builtInResponses,
  answered_at: iso(r.answeredAt),
  ...responseContextView(r),
});
