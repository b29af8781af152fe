import { errors, isChoiceStyle, isRequiredStyle, scaleOf, textLimitOf } from '@feedback/kit-core';
import { normalizePhone } from '@feedback/kit-phone';
import type { Flow, FlowQuestion } from './flow.js';
import type { AnswerValue } from './response.js';

/*
 * What an answer to each question style of docs/flows.md may be: the styles' table (choices,
 * scales, text limits) is kit-core's question-styles.ts, shared with the flow service and the
 * survey page; the service enforces it here on submit.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const isEmpty = (a: AnswerValue) => a.optionKeys.length === 0 && (a.text === undefined || a.text.trim() === '') && a.number === undefined;

/** The stored form of one non-empty answer, or why it does not fit its question. */
function checkAnswer(q: FlowQuestion, a: AnswerValue, phoneRegion: string): AnswerValue | string {
  const base = { questionKey: q.key, optionKeys: [] as string[] };
  const text = a.text?.trim();
  if (q.style === 'statement') return 'takes no answer';
  if (isChoiceStyle(q.style)) {
    if (text || a.number !== undefined) return 'answer with option_keys';
    const keys = new Set(q.options.map((o) => o.key));
    const unknown = a.optionKeys.find((k) => !keys.has(k));
    if (unknown !== undefined) return `"${unknown}" is not an option of this question`;
    if (new Set(a.optionKeys).size !== a.optionKeys.length) return 'names an option twice';
    if (q.style !== 'multiple_choice' && a.optionKeys.length !== 1) return 'choose exactly one option';
    return { ...base, optionKeys: [...a.optionKeys] };
  }
  const scale = scaleOf(q.style);
  if (scale) {
    const n = a.number;
    if (a.optionKeys.length > 0 || text || n === undefined) return `answer with a number from ${scale.min} to ${scale.max}`;
    if (!Number.isInteger(n) || n < scale.min || n > scale.max) return `must be an integer from ${scale.min} to ${scale.max}`;
    return { ...base, number: n };
  }
  if (q.style === 'number') {
    if (a.optionKeys.length > 0 || text || a.number === undefined || !Number.isFinite(a.number)) return 'must be a number';
    return { ...base, number: a.number };
  }
  // The text styles.
  if (a.optionKeys.length > 0 || a.number !== undefined || !text) return 'answer with text';
  const limit = textLimitOf(q.style);
  if (text.length > limit) return `must be at most ${limit} characters`;
  if (q.style === 'email' && !EMAIL.test(text)) return 'is not an e-mail address';
  if (q.style === 'date' && !isDate(text)) return 'must be a date as YYYY-MM-DD';
  if (q.style === 'phone') {
    const phone = normalizePhone(text, phoneRegion);
    return phone.ok ? { ...base, text: phone.phone } : 'is not a valid phone number';
  }
  return { ...base, text };
}

/**
 * Checks answers against the flow and returns them in the flow's question order, empty answers
 * dropped. Every problem is reported at once under `answers.<question_key>`.
 */
export function validateAnswers(flow: Flow, answers: AnswerValue[], phoneRegion: string): AnswerValue[] {
  const problems: Record<string, string> = {};
  const given = new Map<string, AnswerValue>();
  for (const a of answers) {
    const at = `answers.${a.questionKey}`;
    if (!flow.questions.some((q) => q.key === a.questionKey)) problems[at] = 'is not a question of this flow';
    else if (given.has(a.questionKey)) problems[at] = 'is answered twice';
    else given.set(a.questionKey, a);
  }
  const stored: AnswerValue[] = [];
  for (const q of flow.questions) {
    const a = given.get(q.key);
    if (!a || isEmpty(a)) {
      if (isRequiredStyle(q.style)) problems[`answers.${q.key}`] = 'is required';
      continue;
    }
    const checked = checkAnswer(q, a, phoneRegion);
    if (typeof checked === 'string') problems[`answers.${q.key}`] = checked;
    else stored.push(checked);
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems, 'Invalid answers');
  return stored;
}
