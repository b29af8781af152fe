import type { QuestionStyle } from '@feedback/kit-core';

/** A survey flow: its questions, each with a text per language, a style and answer options. */
export type LocalizedText = Record<string, string>;

interface Option {
  id: string;
  key: string;
  body: LocalizedText;
}

interface Question {
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

export const FLOW_LIMITS = {
  nameLength: 200,
  questions: 200,
  options: 100,
  keyPattern: /^[A-Za-z0-9_.-]{1,64}$/,
  languagePattern: /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
  textLength: 2000,
  languages: 50,
};
