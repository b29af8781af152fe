import type { GetCampaignReportResponse, SmsSharingSummary } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { fill, formatters, statusWord, type Formatters, type Words } from './console.i18n.js';
import { scoped } from './console-page.js';
import { page, type PageContext } from './layout.views.js';
import { lineChart } from './svg-chart.js';

export interface CampaignPage {
  viewer: Viewer;
  accountId: string;
  campaignId: string;
  name: string;
  report: GetCampaignReportResponse;
  sharings: SmsSharingSummary[];
  sharingsNext: string;
  /** The range as the form shows it (YYYY-MM-DD, `to` inclusive). */
  from: string;
  to: string;
}

const STEPS = ['sent', 'delivered', 'clicked', 'answered'] as const;

function funnel(w: Words, f: Formatters, report: GetCampaignReportResponse) {
  const t = report.totals;
  const values = STEPS.map((s) => t?.[s] ?? 0);
  return html`<ol class="funnel">${STEPS.map((s, i) => {
    const n = values[i]!;
    const ofSent = i > 0 && values[0]! > 0 ? n / values[0]! : undefined;
    const ofPrevious = i > 1 && values[i - 1]! > 0 ? n / values[i - 1]! : undefined;
    return html`<li><span class="label">${w[s]}</span><span class="n">${f.int(n)}</span>${
      ofSent === undefined ? '' : html`<span class="rate">${f.pct(ofSent)} ${w.ofSent}</span>`
    }${ofPrevious === undefined ? '' : html`<br><span class="rate">${f.pct(ofPrevious)} ${w.ofPrevious}</span>`}</li>`;
  })}</ol>`;
}

function overTime(w: Words, f: Formatters, report: GetCampaignReportResponse) {
  const interval = report.interval === 'hour' ? w.hour : w.day;
  const label = report.interval === 'hour' ? f.hour : f.date;
  const labels = report.series.map((b) => label(b.start));
  const chart = lineChart({
    title: fill(w.chartLabel, { interval: interval.toLowerCase() }),
    labels,
    series: STEPS.map((s) => ({ key: s, name: w[s], values: report.series.map((b) => b[s]) })),
  });
  return html`${chart}
<ul class="legend" aria-hidden="true">${STEPS.map((s) => html`<li class="s-${s}">${w[s]}</li>`)}</ul>
<div class="table-wrap" tabindex="0"><table>
<caption>${w.chartTable}</caption>
<thead><tr><th scope="col">${w.start}</th>${STEPS.map((s) => html`<th scope="col" class="num">${w[s]}</th>`)}</tr></thead>
<tbody>${report.series.map(
    (b, i) => html`<tr><th scope="row">${labels[i]}</th>${STEPS.map((s) => html`<td class="num">${f.int(b[s])}</td>`)}</tr>`,
  )}</tbody>
</table></div>`;
}

function nps(w: Words, f: Formatters, report: GetCampaignReportResponse) {
  const n = report.nps;
  if (!n || n.total === 0 || n.score === undefined) return html`<p class="card">${w.noAnswers}</p>`;
  return html`<div class="card"><span class="big">${n.score}</span>
<dl class="stats">
<div><dt>${w.promoters}</dt><dd>${f.int(n.promoters)}</dd></div>
<div><dt>${w.passives}</dt><dd>${f.int(n.passives)}</dd></div>
<div><dt>${w.detractors}</dt><dd>${f.int(n.detractors)}</dd></div>
<div><dt>${w.answered}</dt><dd>${f.int(n.total)}</dd></div>
</dl></div>`;
}

function rangeForm(w: Words, p: CampaignPage) {
  return html`<form method="get" class="filters card" action="/console/campaigns/${encodeURIComponent(p.campaignId)}">
${p.viewer.accountId === null ? html`<input type="hidden" name="account" value="${p.accountId}">` : ''}
<div><label for="from">${w.from}</label><input id="from" name="from" type="date" value="${p.from}"></div>
<div><label for="to">${w.to}</label><input id="to" name="to" type="date" value="${p.to}"></div>
<div><label for="interval">${w.interval}</label><select id="interval" name="interval">
<option value="day"${p.report.interval !== 'hour' ? html` selected` : ''}>${w.day}</option>
<option value="hour"${p.report.interval === 'hour' ? html` selected` : ''}>${w.hour}</option>
</select></div>
<div><button type="submit">${w.show}</button></div>
</form>`;
}

function sharings(w: Words, f: Formatters, p: CampaignPage) {
  if (p.sharings.length === 0) return html`<p class="card">${w.noSharings}</p>`;
  return html`<div class="table-wrap" tabindex="0"><table>
<thead><tr><th scope="col">${w.created}</th><th scope="col">${w.status}</th><th scope="col" class="num">${w.accepted}</th><th scope="col" class="num">${w.sent}</th><th scope="col" class="num">${w.delivered}</th><th scope="col" class="num">${w.failed}</th><th scope="col" class="num">${w.clicked}</th><th scope="col" class="num">${w.answered}</th><th scope="col">${w.scheduledFor}</th></tr></thead>
<tbody>${p.sharings.map(
    (s) => html`<tr>
<th scope="row"><a href="${scoped(`/console/sharings/${encodeURIComponent(s.sharingId)}`, p.viewer, p.accountId)}">${f.dateTime(s.createdAt)}</a></th>
<td><span class="status ${s.status}">${statusWord(w, s.status)}</span></td>
<td class="num">${f.int(s.accepted)}</td>
<td class="num">${f.int(s.totals?.sent ?? 0)}</td>
<td class="num">${f.int(s.totals?.delivered ?? 0)}</td>
<td class="num">${f.int(s.totals?.failed ?? 0)}</td>
<td class="num">${f.int(s.totals?.clicked ?? 0)}</td>
<td class="num">${f.int(s.totals?.answered ?? 0)}</td>
<td>${f.dateTime(s.scheduledFor)}</td>
</tr>`,
  )}</tbody></table></div>
<nav class="pager" aria-label="${w.sharings}">${
    p.sharingsNext
      ? html`<a rel="next" href="${scoped(`/console/campaigns/${encodeURIComponent(p.campaignId)}`, p.viewer, p.accountId, {
          from: p.from,
          to: p.to,
          interval: p.report.interval,
          sharings_page: p.sharingsNext,
        })}">${w.nextPage}</a>`
      : ''
  }</nav>`;
}

/** A campaign: the funnel, the chart with its figures beneath, the NPS, and its sharings. */
export function campaignPage(ctx: PageContext, p: CampaignPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  return page(
    ctx,
    p.name,
    html`<p><a href="${scoped('/console/', p.viewer, p.accountId)}">${w.campaigns}</a></p>
<h1>${p.name}</h1>
${rangeForm(w, p)}
<h2>${w.funnel}</h2>
${funnel(w, f, p.report)}
<h2>${w.overTime}</h2>
${overTime(w, f, p.report)}
<h2>${w.npsTitle}</h2>
${nps(w, f, p.report)}
<h2>${w.sharings}</h2>
${sharings(w, f, p)}`,
  );
}
