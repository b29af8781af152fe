import type { AnswerFact, FactDeps } from '../ports.js';

/** A `survey.answered` event as the answered fact needs it (decoded by answer-facts.consumer.ts). */
export interface AnsweredMessage {
  accountId: string;
  flowId: string;
  /** The SMS that carried the answered link (the response's send context): its first message's record. */
  messageId: string;
  answeredAt: Date;
  answers: { questionKey: string; number?: number }[];
}

/**
 * The NPS score of a response: its number for the flow's first question of style `nps`
 * (docs/flows.md), when it answers it with an integer 0-10; otherwise none (the flow has no nps
 * question, or the respondent skipped it).
 */
export function npsOf(answers: AnsweredMessage['answers'], npsQuestionKey: string | null): number | undefined {
  if (npsQuestionKey === null) return undefined;
  const n = answers.find((a) => a.questionKey === npsQuestionKey)?.number;
  return n !== undefined && Number.isInteger(n) && n >= 0 && n <= 10 ? n : undefined;
}

/**
 * Records the answered fact (with its NPS score) on each answered message's record, once: the
 * update's filter is the record's id, its account (another account's event matches nothing) and
 * `answered_at` unset, so a redelivered event changes nothing. Each flow's nps question is looked
 * up once per batch (and cached by the adapter: flows never change). Answers how many facts it set.
 */
export async function recordAnswers(deps: FactDeps, answered: AnsweredMessage[]): Promise<number> {
  if (answered.length === 0) return 0;
  const keys = new Map<string, Promise<string | null>>();
  const npsKeyOf = (a: AnsweredMessage) => {
    const k = `${a.accountId}/${a.flowId}`;
    let key = keys.get(k);
    if (!key) keys.set(k, (key = a.flowId ? deps.flows.npsQuestionOf(a.accountId, a.flowId) : Promise.resolve(null)));
    return key;
  };
  const facts: AnswerFact[] = await Promise.all(
    answered.map(async (a) => {
      const nps = npsOf(a.answers, await npsKeyOf(a));
      return { messageId: a.messageId, accountId: a.accountId, at: a.answeredAt, ...(nps !== undefined && { nps }) };
    }),
  );
  return deps.facts.recordAnswers(facts);
}
