/** A survey flow: its questions, each with a text per language, a style and answer options. */
export type LocalizedText = Record<string, string>;

export interface Option {
  id: string;
  key: string;
  body: LocalizedText;
}

export interface Question {
  id: string;
  key: string;
  body: LocalizedText;
  style: QuestionStyle;
  options: Option[];
}

export interface Flow {
  id: string;
  accountId: string;
  name: string;
  questions: Question[];
  createdAt: Date;
}

export interface FlowDefinition {
  name: string;
  questions: Array<{
    key: string;
    body: LocalizedText;
    style: string;
    options: Array<{ key: string; body: LocalizedText }>;
  }>;
}

/**
 * The question styles we accept (docs/flows.md explains each):
 * - choice styles list their answers as options, at least two;
 * - scale styles have a fixed scale, options optionally label its points;
 * - input and display styles take no options.
 */
export const CHOICE_STYLES = ['single_choice', 'multiple_choice', 'dropdown'] as const;
export const SCALE_STYLES = ['nps', 'csat', 'ces', 'star_rating', 'emoji_rating', 'yes_no'] as const;
export const INPUT_STYLES = ['short_text', 'long_text', 'email', 'phone', 'number', 'date', 'statement'] as const;
export const QUESTION_STYLES = [...CHOICE_STYLES, ...SCALE_STYLES, ...INPUT_STYLES] as const;
export type QuestionStyle = (typeof QUESTION_STYLES)[number];

export const FLOW_LIMITS = {
  nameLength: 200,
  questions: 200,
  options: 100,
  keyPattern: /^[A-Za-z0-9_.-]{1,64}$/,
  languagePattern: /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
  textLength: 2000,
  languages: 50,
};
