import type { GetCampaignReportResponse, SmsCampaign } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { formatters } from './console.i18n.js';
import { scoped } from './console-page.js';
import { page, type PageContext } from './layout.views.js';

/** An operator sees every account: which one to look at (an id: the accounts have no list to page through). */
export function accountPickerPage(ctx: PageContext, opts: { account?: string; message?: string } = {}): string {
  const w = ctx.words;
  return page(
    ctx,
    w.chooseAccount,
    html`<div class="card narrow"><h1>${w.chooseAccount}</h1>
${opts.message ? html`<p class="alert" role="alert">${opts.message}</p>` : ''}
<form method="get" action="/console/">
<label for="account">${w.accountId}</label>
<input id="account" name="account" type="text" required autocomplete="off" spellcheck="false" value="${opts.account ?? ''}">
<button type="submit">${w.open}</button>
</form></div>`,
  );
}

export interface CampaignRow {
  campaign: SmsCampaign;
  /** The last 30 days; null when the report could not be read (shown as dashes, the list still shows). */
  report: GetCampaignReportResponse | null;
}

/** The account's campaigns, a page at a time, each with its key numbers of the last 30 days. */
export function campaignsPage(
  ctx: PageContext,
  opts: {
    viewer: Viewer;
    accountId: string;
    accountName: string;
    rows: CampaignRow[];
    nextPageToken: string;
    firstPage: boolean;
    timeZone: string;
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, opts.timeZone);
  const dash = '–';
  const num = (r: CampaignRow, pick: (t: NonNullable<GetCampaignReportResponse['totals']>) => number) =>
    r.report?.totals ? f.int(pick(r.report.totals)) : dash;
  const rows = opts.rows.map(
    (r) => html`<tr>
<th scope="row"><a href="${scoped(`/console/campaigns/${encodeURIComponent(r.campaign.id)}`, opts.viewer, opts.accountId)}">${r.campaign.name}</a></th>
<td class="num">${num(r, (t) => t.sent)}</td>
<td class="num">${num(r, (t) => t.delivered)}</td>
<td class="num">${num(r, (t) => t.clicked)}</td>
<td class="num">${num(r, (t) => t.answered)}</td>
<td class="num">${r.report?.nps?.score ?? dash}</td>
<td>${f.date(r.campaign.createdAt)}</td>
</tr>`,
  );
  const pager = html`<nav class="pager" aria-label="${w.campaigns}">${
    opts.firstPage ? '' : html`<a href="${scoped('/console/', opts.viewer, opts.accountId)}">${w.firstPage}</a>`
  }${opts.nextPageToken ? html`<a href="${scoped('/console/', opts.viewer, opts.accountId, { page: opts.nextPageToken })}" rel="next">${w.nextPage}</a>` : ''}</nav>`;
  return page(
    ctx,
    w.campaigns,
    html`<h1>${w.campaigns}</h1>
${opts.viewer.accountId === null ? html`<p class="muted">${w.account}: ${opts.accountName} · <a href="/console/">${w.chooseAccount}</a></p>` : ''}
${
  opts.rows.length === 0
    ? html`<p class="card">${w.noCampaigns}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.campaigns} · ${w.last30}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col" class="num">${w.sent}</th><th scope="col" class="num">${w.delivered}</th><th scope="col" class="num">${w.clicked}</th><th scope="col" class="num">${w.answered}</th><th scope="col" class="num">${w.nps}</th><th scope="col">${w.created}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${pager}`,
  );
}
