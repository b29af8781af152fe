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
    campaign_id: orNull(r.context?.campaignId),
    sharing_id: orNull(r.context?.sharingId),
    message_id: orNull(r.context?.messageId),
    custom_attributes: r.context ? r.context.customAttributes : null,
  };
}

export const npsView = (flowId: string, questions: NpsQuestionSummary[]) => ({
  flow_id: flowId,
  questions: questions.map((q) => ({
    question_key: q.questionKey,
    promoters: q.promoters,
    passives: q.passives,
    detractors: q.detractors,
    total: q.total,
    score: q.score ?? null,
  })),
});
