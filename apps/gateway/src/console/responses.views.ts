import { answersByQuestion, type AnswerShown } from '@feedback/kit-core';
import type { SmsCampaign } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { SurveyResponse } from '@feedback/proto/feedback/survey/v1/survey';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { formatters } from './console.i18n.js';
import { scoped } from './console-page.js';
import { page, type PageContext } from './layout.views.js';

export interface ResponsesPage {
  viewer: Viewer;
  accountId: string;
  /** The filter's choices: the account's campaigns (the first ones). */
  campaigns: SmsCampaign[];
  campaignId: string;
  from: string;
  to: string;
  responses: SurveyResponse[];
  nextPageToken: string;
  firstPage: boolean;
}

const shown = (a: AnswerShown) => (Array.isArray(a) ? a.join(', ') : String(a));

/** The account's responses, newest first, filtered by campaign and days, a page at a time; the CSV of a chosen campaign. */
export function responsesPage(ctx: PageContext, p: ResponsesPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const filters = { campaign: p.campaignId, from: p.from, to: p.to };
  const names = new Map(p.campaigns.map((c) => [c.id, c.name]));
  const link = (page: string | undefined) => scoped('/console/responses', p.viewer, p.accountId, { ...filters, page });
  const rows = p.responses.map((r) => {
    const answers = Object.entries(answersByQuestion(r.answers));
    const campaignId = r.context?.campaignId ?? '';
    return html`<tr>
<td><a href="${scoped(`/console/responses/${encodeURIComponent(r.id)}`, p.viewer, p.accountId)}">${f.dateTime(r.answeredAt)}</a></td>
<td>${campaignId ? (names.get(campaignId) ?? campaignId) : ''}</td>
<td>${answers
      .slice(0, 3)
      .map(([k, v]) => `${k}: ${shown(v)}`)
      .join(' · ')}${answers.length > 3 ? ' …' : ''}</td>
</tr>`;
  });
  return page(
    ctx,
    w.rs_title,
    html`<h1>${w.rs_title}</h1>
<form method="get" class="filters card" action="/console/responses">
${p.viewer.accountId === null ? html`<input type="hidden" name="account" value="${p.accountId}">` : ''}
<div><label for="campaign">${w.up_campaign}</label><select id="campaign" name="campaign">
<option value="">${w.rs_any}</option>
${p.campaigns.map((c) => html`<option value="${c.id}"${c.id === p.campaignId ? html` selected` : ''}>${c.name}</option>`)}
</select></div>
<div><label for="from">${w.from}</label><input id="from" name="from" type="date" value="${p.from}"></div>
<div><label for="to">${w.to}</label><input id="to" name="to" type="date" value="${p.to}"></div>
<div><button type="submit">${w.filter}</button></div>
</form>
<p>${
      p.campaignId
        ? html`<a download href="${scoped('/console/responses/export.csv', p.viewer, p.accountId, filters)}">${w.rs_export}</a>`
        : w.rs_exportHint
    }</p>
${
  p.responses.length === 0
    ? html`<p class="card">${w.rs_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.rs_title}</caption>
<thead><tr><th scope="col">${w.rs_answered}</th><th scope="col">${w.up_campaign}</th><th scope="col">${w.rs_answers}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.rs_title}">${p.firstPage ? '' : html`<a href="${link(undefined)}">${w.firstPage}</a>`}${
      p.nextPageToken ? html`<a rel="next" href="${link(p.nextPageToken)}">${w.nextPage}</a>` : ''
    }</nav>`,
  );
}

/** One response: its answers by question, where it came from (campaign, sharing, message) and the recipient's custom attributes. */
export function responsePage(
  ctx: PageContext,
  p: { viewer: Viewer; accountId: string; response: SurveyResponse },
  timeZone: string,
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const r = p.response;
  const c = r.context;
  const dl = (pairs: Array<[string, unknown]>) =>
    html`<dl class="pairs">${pairs.filter(([, v]) => v !== '' && v !== undefined).map(([k, v]) => html`<dt>${k}</dt><dd>${v as string}</dd>`)}</dl>`;
  const table = (caption: string, entries: Array<[string, string]>, head: [string, string]) =>
    entries.length
      ? html`<div class="table-wrap" tabindex="0"><table><caption>${caption}</caption>
<thead><tr><th scope="col">${head[0]}</th><th scope="col">${head[1]}</th></tr></thead>
<tbody>${entries.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table></div>`
      : '';
  return page(
    ctx,
    `${w.rs_title} ${f.dateTime(r.answeredAt)}`,
    html`<p><a href="${scoped('/console/responses', p.viewer, p.accountId)}">${w.rs_back}</a></p>
<h1>${w.rs_answered} ${f.dateTime(r.answeredAt)}</h1>
${table(
  w.rs_answers,
  Object.entries(answersByQuestion(r.answers)).map(([k, v]) => [k, shown(v)]),
  [w.rs_question, w.rs_answer],
)}
<h2>${w.rs_context}</h2>
<div class="card">${dl([
      [
        w.up_campaign,
        c?.campaignId
          ? html`<a href="${scoped(`/console/campaigns/${encodeURIComponent(c.campaignId)}`, p.viewer, p.accountId)}">${c.campaignId}</a>`
          : '',
      ],
      [
        w.sharing,
        c?.sharingId
          ? html`<a href="${scoped(`/console/sharings/${encodeURIComponent(c.sharingId)}`, p.viewer, p.accountId)}">${c.sharingId}</a>`
          : '',
      ],
      [w.rs_message, c?.messageId ?? ''],
      [w.rs_flow, r.flowId],
      [w.rs_customer, [r.customer?.externalId, r.customer?.email, r.customer?.phone].filter(Boolean).join(' · ')],
    ])}</div>
${table(w.rs_attributes, Object.entries(c?.customAttributes ?? {}), [w.name, w.rs_value])}
${table(w.rs_builtIn, Object.entries(r.builtInResponses), [w.name, w.rs_value])}`,
  );
}
