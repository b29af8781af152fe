import { isoWithOffset } from '@feedback/kit-core';
import type { Answer, NpsQuestionSummary, SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';

/** A free-text or numeric answer as its value; a choice as its option keys. */
export function answerValue(a: Answer): number | string | string[] {
  if (a.number !== undefined) return a.number;
  if (a.text !== undefined) return a.text;
  return a.optionKeys;
}

const orNull = (s: string | undefined) => (s ? s : null);

export function surveyResponseView(r: SurveyResponse | undefined) {
  if (!r) throw new Error('survey service answered without a response');
  return {
    id: r.id,
    flow_id: r.flowId,
    channel_id: r.channelId,
    customer: { external_id: orNull(r.customer?.externalId), email: orNull(r.customer?.email), phone: orNull(r.customer?.phone) },
    created_at: isoWithOffset(new Date(r.answeredAt)),
    answers: Object.fromEntries(r.answers.map((a) => [a.questionKey, answerValue(a)])),
    built_in_responses: r.builtInResponses,
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
