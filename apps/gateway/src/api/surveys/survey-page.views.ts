import type { GetSurveyPageResponse } from '@feedback/proto/feedback/survey/v1/survey';
import { html, Html } from './html.js';
import type { FormValues } from './survey-form.js';
import { SURVEY_PAGE_CSS } from './survey-page.css.js';
import { chromeFor, flowLanguages, type Chrome } from './survey-page.i18n.js';
import { questionHtml } from './survey-questions.html.js';

function layout(lang: string, title: string, content: Html): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Html(SURVEY_PAGE_CSS)}</style>
</head>
<body><main>${content}</main></body>
</html>
`.value;
}

export interface FormPage {
  page: GetSurveyPageResponse;
  lang: string;
  action: string;
  /** Where the "do not text me again" button posts; shown only for a link that came by SMS. */
  optOutAction?: string;
  form?: FormValues;
  errors?: Record<string, string>;
}

/** The survey: every question of the flow in the chosen language, one form POSTed to the page itself. */
export function surveyFormPage({ page, lang, action, optOutAction, form = {}, errors = {} }: FormPage): string {
  const flow = page.flow!;
  const chrome = chromeFor(lang);
  const c = { lang, languages: flowLanguages(flow), chrome, form, errors };
  const known = new Set(flow.questions.map((q) => `answers.${q.key}`));
  const other = Object.entries(errors).filter(([k]) => !known.has(k));
  const summary =
    Object.keys(errors).length > 0
      ? html`<div class="summary" role="alert">${chrome.fixErrors}${other.map(([k, v]) => html`<br>${k}: ${v}`)}</div>`
      : '';
  return layout(
    lang,
    flow.name,
    html`<h1>${flow.name}</h1>${page.customerName ? html`<p class="hello">${chrome.hello} ${page.customerName},</p>` : ''}${summary}
<form method="post" action="${action}" accept-charset="utf-8">
${flow.questions.map((q) => questionHtml(q, c))}
<button type="submit">${chrome.send}</button>
</form>${
      page.smsPhone && optOutAction
        ? html`
<form method="post" action="${optOutAction}" class="opt-out"><button type="submit" class="secondary">${chrome.optOut}</button></form>`
        : ''
    }`,
  );
}

export type NoticeKind = 'thanks' | 'answered' | 'expired' | 'notFound' | 'forbidden' | 'error' | 'optedOut';

const NOTICES: Record<NoticeKind, (c: Chrome) => [string, string]> = {
  thanks: (c) => [c.thanksTitle, c.thanksBody],
  answered: (c) => [c.answeredTitle, c.answeredBody],
  expired: (c) => [c.expiredTitle, c.expiredBody],
  notFound: (c) => [c.notFoundTitle, c.notFoundBody],
  forbidden: (c) => [c.forbiddenTitle, c.forbiddenBody],
  error: (c) => [c.errorTitle, c.errorBody],
  optedOut: (c) => [c.optedOutTitle, c.optedOutBody],
};

/** A short page in place of the survey: thanks, already answered, expired, unknown link, refused, failure. */
export function noticePage(kind: NoticeKind, lang: string): string {
  const [title, body] = NOTICES[kind](chromeFor(lang));
  return layout(lang, title, html`<div class="card notice ${kind}"><h1>${title}</h1><p>${body}</p></div>`);
}
