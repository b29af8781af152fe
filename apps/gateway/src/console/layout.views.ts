import type { Viewer } from '../accounts/domain/people.js';
import { html, type Html } from '../api/surveys/html.js';
import { CONSOLE_CSS_PATH } from './console.css.js';
import { CONSOLE_ICON_PATH } from './console-icon.js';
import { CONSOLE_LANGS, wordsFor, type ConsoleLang, type Words } from './console.i18n.js';

/** What every page's frame needs: the language, who is signed in (none on sign-in), the page's own URL for the language links. */
export interface PageContext {
  lang: ConsoleLang;
  words: Words;
  viewer?: Viewer;
  /** The page's path and query without `lang`: the language links add theirs. */
  here: string;
}

const LANG_NAMES: Record<ConsoleLang, string> = { en: 'English', tr: 'Türkçe' };

function withLang(here: string, lang: ConsoleLang): string {
  const url = new URL(here, 'http://x');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

/** Users and tokens for owners (an operator reaches an account's from its page); accounts and SMS limits for operators. */
function adminNav(ctx: PageContext, v: Viewer): Html {
  const w = ctx.words;
  if (v.role === 'owner') return html`<a href="/console/users">${w.nav_users}</a><a href="/console/tokens">${w.nav_tokens}</a>`;
  if (v.role === 'operator')
    return html`<a href="/console/accounts">${w.nav_accounts}</a><a href="/console/sms-limits">${w.nav_smsLimits}</a>`;
  return html``;
}

/** Uploads, opt-outs and responses for everyone of an account; webhooks for owners and operators only (an operator's chosen account carried along). */
function dataNav(ctx: PageContext, v: Viewer): Html {
  const w = ctx.words;
  const account = v.accountId === null ? new URL(ctx.here, 'http://x').searchParams.get('account') : null;
  const to = (path: string) => (account ? `${path}?${new URLSearchParams({ account })}` : path);
  return html`<a href="${to('/console/uploads')}">${w.nav_uploads}</a><a href="${to('/console/opt-outs')}">${w.nav_optOuts}</a><a href="${to('/console/responses')}">${w.nav_responses}</a>${
    v.role === 'owner' || v.role === 'operator' ? html`<a href="${to('/console/webhooks')}">${w.nav_webhooks}</a>` : ''
  }`;
}

function header(ctx: PageContext): Html {
  const w = ctx.words;
  const langs = html`<nav class="langs" aria-label="${w.language}">${CONSOLE_LANGS.map(
    (l) =>
      html`<a href="${withLang(ctx.here, l)}" lang="${l}" hreflang="${l}"${l === ctx.lang ? html` aria-current="true"` : ''}>${LANG_NAMES[l]}</a>`,
  )}</nav>`;
  const v = ctx.viewer;
  return html`<header class="top">
<a class="brand" href="/console/">${w.appName}</a>
${v ? html`<nav aria-label="${w.appName}"><a href="/console/">${w.campaigns}</a>${dataNav(ctx, v)}${adminNav(ctx, v)}</nav>` : ''}
<div class="who">${langs}${
    v
      ? html`<span>${w.signedInAs}: ${v.name || v.email} (${(w as unknown as Record<string, string>)[`role_${v.role}`] ?? v.role})</span>
<a href="/console/password">${w.nav_password}</a>
<form method="post" action="/console/sign-out"><input type="hidden" name="_csrf" value="${v.csrfToken}"><button type="submit">${w.signOut}</button></form>`
      : ''
  }</div>
</header>`;
}

/** A whole console page. */
export function page(ctx: PageContext, title: string, content: Html): string {
  return html`<!doctype html>
<html lang="${ctx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${ctx.words.appName}</title>
<link rel="stylesheet" href="${CONSOLE_CSS_PATH}">
<link rel="icon" href="${CONSOLE_ICON_PATH}" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">${ctx.words.skip}</a>
${header(ctx)}
<main id="main" tabindex="-1">${content}</main>
</body>
</html>
`.value;
}

export type MessageKind = 'notFound' | 'forbidden' | 'invalid' | 'error';

/** A page that only says what went wrong (404, 403, 400, 5xx). */
export function messagePage(ctx: PageContext, kind: MessageKind, details: string[] = []): string {
  const w = ctx.words;
  const [title, body] = (
    {
      notFound: [w.notFoundTitle, w.notFoundBody],
      forbidden: [w.forbiddenTitle, w.forbiddenBody],
      invalid: [w.invalidTitle, ''],
      error: [w.errorTitle, w.errorBody],
    } satisfies Record<MessageKind, [string, string]>
  )[kind];
  return page(
    ctx,
    title,
    html`<div class="card"><h1>${title}</h1>${body ? html`<p>${body}</p>` : ''}${
      details.length ? html`<ul>${details.map((d) => html`<li>${d}</li>`)}</ul>` : ''
    }<p><a href="/console/">${w.campaigns}</a></p></div>`,
  );
}

/** A hidden field carrying the session's CSRF token: every form of a signed-in page has one. */
export const csrfField = (viewer: Viewer) => html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;

export { wordsFor };
