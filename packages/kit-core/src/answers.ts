/** A stored answer's fields (feedback.survey.v1.Answer): option keys for choices, else a text or a number. */
export interface AnswerFields {
  questionKey: string;
  optionKeys: string[];
  text?: string | undefined;
  number?: number | undefined;
}

/** An answer as integrators see it: a number (scales, numbers), a text, or the chosen option keys. */
export type AnswerShown = number | string | string[];

export function answerValue(a: AnswerFields): AnswerShown {
  if (a.number !== undefined) return a.number;
  if (a.text !== undefined) return a.text;
  return a.optionKeys;
}

/**
 * The answers keyed by question key (docs/api.md "Responses"): the one shape of a response's
 * `answers` in the REST API, the CSV export's cells and the survey.answered webhook alike.
 */
export function answersByQuestion(answers: readonly AnswerFields[]): Record<string, AnswerShown> {
  return Object.fromEntries(answers.map((a) => [a.questionKey, answerValue(a)]));
}
