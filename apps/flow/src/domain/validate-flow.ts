import { errors, isChoiceStyle, isInputStyle, isQuestionStyle, QUESTION_STYLES } from '@feedback/kit-core';
import { FLOW_LIMITS, type FlowDefinition, type LocalizedText } from './flow.js';

type Problems = Record<string, string>;

function checkText(path: string, body: LocalizedText, problems: Problems) {
  const entries = Object.entries(body ?? {});
  if (entries.length === 0) problems[path] = 'must have a text for at least one language code';
  if (entries.length > FLOW_LIMITS.languages) problems[path] = `must have at most ${FLOW_LIMITS.languages} languages`;
  for (const [lang, text] of entries) {
    if (!FLOW_LIMITS.languagePattern.test(lang)) problems[`${path}.${lang}`] = 'is not a language code (e.g. en, tr, pt-BR)';
    else if (typeof text !== 'string' || text.trim() === '') problems[`${path}.${lang}`] = 'must be a non-empty string';
    else if (text.length > FLOW_LIMITS.textLength) problems[`${path}.${lang}`] = `must be at most ${FLOW_LIMITS.textLength} characters`;
  }
}

function checkKey(path: string, key: string, seen: Set<string>, problems: Problems) {
  if (!FLOW_LIMITS.keyPattern.test(key ?? '')) problems[path] = 'must be 1-64 letters, digits, _ . or -';
  else if (seen.has(key)) problems[path] = `duplicate key "${key}"`;
  seen.add(key);
}

/** Checks a flow definition and answers every problem at once, each under its field path. */
export function validateFlowDefinition(def: FlowDefinition): void {
  const problems: Problems = {};
  const name = def.name?.trim() ?? '';
  if (name === '') problems.name = 'is required';
  else if (name.length > FLOW_LIMITS.nameLength) problems.name = `must be at most ${FLOW_LIMITS.nameLength} characters`;

  if (!Array.isArray(def.questions) || def.questions.length === 0) problems.questions = 'must have at least one question';
  else if (def.questions.length > FLOW_LIMITS.questions) problems.questions = `must have at most ${FLOW_LIMITS.questions} questions`;

  const questionKeys = new Set<string>();
  (def.questions ?? []).forEach((q, i) => {
    const at = `questions[${i}]`;
    checkKey(`${at}.key`, q.key, questionKeys, problems);
    checkText(`${at}.body`, q.body, problems);
    const style = q.style;
    if (!isQuestionStyle(style)) {
      problems[`${at}.style`] = `must be one of ${QUESTION_STYLES.join(', ')}`;
      return;
    }
    const options = q.options ?? [];
    if (isChoiceStyle(style) && options.length < 2) {
      problems[`${at}.options`] = `a ${style} question needs at least two options`;
    } else if (isInputStyle(style) && options.length > 0) {
      problems[`${at}.options`] = `a ${style} question takes no options`;
    } else if (options.length === 1) {
      problems[`${at}.options`] = 'give at least two options, or none';
    } else if (options.length > FLOW_LIMITS.options) {
      problems[`${at}.options`] = `must have at most ${FLOW_LIMITS.options} options`;
    }
    const optionKeys = new Set<string>();
    options.forEach((o, j) => {
      checkKey(`${at}.options[${j}].key`, o.key, optionKeys, problems);
      checkText(`${at}.options[${j}].body`, o.body, problems);
    });
  });

  if (Object.keys(problems).length > 0) throw errors.invalid(problems, 'Invalid flow definition');
}
