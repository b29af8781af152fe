import { isChoiceStyle, isRequiredStyle, scaleOf, TEXT_LIMITS, type Scale } from '@feedback/kit-core';
import type { Question } from '@feedback/proto/feedback/flow/v1/flow';
import { html, type Html } from './html.js';
import { fieldName, type FormValues } from './survey-form.js';
import { localized, type Chrome } from './survey-page.i18n.js';

const EMOJI = ['😞', '🙁', '😐', '🙂', '😄'];
const INPUTS: Record<string, { type: string; maxLength: number; extra?: Html }> = {
  short_text: { type: 'text', maxLength: TEXT_LIMITS.short_text },
  email: { type: 'email', maxLength: TEXT_LIMITS.email, extra: html`autocomplete="email" inputmode="email"` },
  phone: { type: 'tel', maxLength: TEXT_LIMITS.phone, extra: html`autocomplete="tel"` },
  number: { type: 'text', maxLength: 40, extra: html`inputmode="decimal"` },
  date: { type: 'date', maxLength: TEXT_LIMITS.date },
};

export interface QuestionContext {
  lang: string;
  languages: string[];
  chrome: Chrome;
  form: FormValues;
  errors: Record<string, string>;
}

const text = (q: { body: Record<string, string> }, c: QuestionContext) => localized(q.body, c.lang, c.languages);
const isSet = (c: QuestionContext, name: string, value: string) => (c.form[name] ?? []).includes(value);

function choice(q: Question, c: QuestionContext): Html {
  const name = fieldName('o', q.key);
  if (q.style === 'dropdown') {
    return html`<select name="${name}" id="f-${q.key}" required><option value="">${c.chrome.choose}</option>${q.options.map(
      (o) => html`<option value="${o.key}"${isSet(c, name, o.key) ? html` selected` : ''}>${text(o, c)}</option>`,
    )}</select>`;
  }
  const type = q.style === 'multiple_choice' ? 'checkbox' : 'radio';
  const required = type === 'radio' ? html` required` : '';
  return html`<div class="options">${q.options.map(
    (o) =>
      html`<label class="option"><input type="${type}" name="${name}" value="${o.key}"${required}${isSet(c, name, o.key) ? html` checked` : ''}><span>${text(o, c)}</span></label>`,
  )}</div>`;
}

function scale(q: Question, c: QuestionContext, points: Scale): Html {
  const name = fieldName('n', q.key);
  const values = Array.from({ length: points.max - points.min + 1 }, (_, i) => points.min + i);
  const labels = q.options.map((o) => text(o, c));
  const eachLabelled = labels.length === values.length;
  const face = (v: number) => {
    if (eachLabelled) return labels[v - points.min]!;
    if (q.style === 'yes_no') return v === 1 ? c.chrome.yes : c.chrome.no;
    if (q.style === 'star_rating') return `${v} ★`;
    if (q.style === 'emoji_rating') return EMOJI[v - 1] ?? String(v);
    return String(v);
  };
  const ariaLabel = (v: number) => (q.style === 'star_rating' || q.style === 'emoji_rating' ? html` aria-label="${v}"` : '');
  // Yes before no, as people read it; every other scale ascends.
  const order = q.style === 'yes_no' ? [...values].reverse() : values;
  const ends =
    !eachLabelled && labels.length >= 2 ? html`<div class="ends"><span>${labels[0]}</span><span>${labels.at(-1)}</span></div>` : '';
  return html`<div class="scale ${eachLabelled || q.style === 'yes_no' ? 'wide' : ''} ${q.style}">${order.map(
    (v) =>
      html`<label class="point"><input type="radio" name="${name}" value="${v}" required${ariaLabel(v)}${isSet(c, name, String(v)) ? html` checked` : ''}><span>${face(v)}</span></label>`,
  )}</div>${ends}`;
}

function input(q: Question, c: QuestionContext): Html {
  const name = fieldName(q.style === 'number' ? 'n' : 't', q.key);
  const value = c.form[name]?.[0] ?? '';
  if (q.style === 'long_text') return html`<textarea name="${name}" id="f-${q.key}" rows="4" maxlength="5000">${value}</textarea>`;
  const spec = INPUTS[q.style] ?? INPUTS.short_text!;
  return html`<input type="${spec.type}" name="${name}" id="f-${q.key}" maxlength="${spec.maxLength}" value="${value}" ${spec.extra ?? ''}>`;
}

/** One question of the flow as a form field, with its error (from the service) beside it. */
export function questionHtml(q: Question, c: QuestionContext): Html {
  const body = text(q, c);
  if (q.style === 'statement') return html`<section class="q statement"><p>${body}</p></section>`;
  const error = c.errors[`answers.${q.key}`];
  const points = scaleOf(q.style);
  const field = isChoiceStyle(q.style) ? choice(q, c) : points ? scale(q, c, points) : input(q, c);
  const mark = isRequiredStyle(q.style) ? html` <abbr class="req" title="${c.chrome.required}">*</abbr>` : '';
  return html`<fieldset class="q${error ? ' invalid' : ''}" id="q-${q.key}" data-style="${q.style}"><legend>${body}${mark}</legend>${
    error ? html`<p class="error" role="alert">${error}</p>` : ''
  }${field}</fieldset>`;
}
