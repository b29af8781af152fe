import type { ConsumerHandle } from '@feedback/kit-kafka';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import { recordAnswers, type AnsweredMessage } from '../../domain/answer-facts.js';
import type { FactDeps } from '../../ports.js';
import { runFactConsumer, type FactConsumerOptions } from './fact.consumer.js';

/**
 * One `survey.answered` event as the answered fact needs it: null for an answer to a link no SMS
 * carried (no message id in its send context, or a response stored before links kept one);
 * throws when the event has no response, account or answer time.
 */
export function decodeSurveyAnswered(value: Buffer): AnsweredMessage | null {
  const r = SurveyAnswered.decode(value).response;
  if (!r?.accountId) throw new Error('survey.answered without a response of an account');
  const answeredAt = new Date(r.answeredAt);
  if (!r.answeredAt || Number.isNaN(answeredAt.getTime())) throw new Error('survey.answered without its answer time');
  const messageId = r.context?.messageId;
  if (!messageId) return null;
  return {
    accountId: r.accountId,
    flowId: r.flowId,
    messageId,
    answeredAt,
    answers: r.answers.map((a) => ({ questionKey: a.questionKey, ...(a.number !== undefined && { number: a.number }) })),
  };
}

/** The answered fact (and its NPS score): messaging's own group on the survey service's `survey.answered`. */
export function runAnswerFactsConsumer(opts: FactConsumerOptions & { deps: FactDeps }): Promise<ConsumerHandle> {
  return runFactConsumer({ ...opts, decode: decodeSurveyAnswered, record: (answered) => recordAnswers(opts.deps, answered) });
}
