import { answersByQuestion, isoWithOffset } from '@feedback/kit-core';
import type { NpsQuestionSummary, SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';

const orNull = (s: string | undefined) => (s ? s : null);

export function surveyResponseView(r: SurveyResponse | undefined) {
  if (!r) throw new Error('survey service answered without a response');
  return {
    id: r.id,
    flow_id: r.flowId,
    channel_id: r.channelId,
    customer: { external_id: orNull(r.customer?.externalId), email: orNull(r.customer?.email), phone: orNull(r.customer?.phone) },
    created_at: isoWithOffset(new Date(r.answeredAt)),
    answers: answersByQuestion(r.answers),
    built_in_responses: r.builtInResponses,
    ...responseContextView(r),
  };
}

/** The send context of a response: the campaign, sharing and message of its link, and the recipient's attributes. */
export const responseContextView = (r: SurveyResponse) => ({
  campaign_id: orNull(r.context?.campaignId),
  sharing_id: orNull(r.context?.sharingId),
  message_id: orNull(r.context?.messageId),
  custom_attributes: r.context ? r.context.customAttributes : null,
});

type Tallied = Pick<NpsQuestionSummary, 'promoters' | 'passives' | 'detractors' | 'total' | 'score'>;

const talliesView = (t: Tallied) => ({
  promoters: t.promoters,
  passives: t.passives,
  detractors: t.detractors,
  total: t.total,
  score: t.score ?? null,
});

/** `series` and `groups` only when asked for (interval, group_by): the summary's shape stays as it was otherwise. */
export const npsView = (flowId: string, questions: NpsQuestionSummary[], asked: { interval?: string; group_by?: string } = {}) => ({
  flow_id: flowId,
  questions: questions.map((q) => ({
    question_key: q.questionKey,
    ...talliesView(q),
    ...(asked.interval ? { series: q.series.map((s) => ({ start: s.key, ...talliesView(s) })) } : {}),
    ...(asked.group_by ? { groups: q.groups.map((g) => ({ value: g.key || null, ...talliesView(g) })) } : {}),
  })),
});
