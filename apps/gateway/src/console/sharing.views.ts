import type { RecipientStatus, SmsSharingSummary } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { fill, formatters, statusWord } from './console.i18n.js';
import { canAct, scoped } from './console-page.js';
import { csrfField, page, type PageContext } from './layout.views.js';

/** The statuses a recipient's first message can be in, as the filter offers them. */
export const RECIPIENT_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'retryable',
  'unknown',
  'delivered',
  'failed',
  'opted_out',
  'cancelled',
] as const;

export interface SharingPage {
  viewer: Viewer;
  accountId: string;
  /** The sharing as the lists show it: its status and counters. */
  sharing: SmsSharingSummary;
  /** This page's recipients, after the filter. */
  recipients: RecipientStatus[];
  nextPageToken: string;
  firstPage: boolean;
  status: string;
  phone: string;
  /** Set after a cancel: how many will not be texted. */
  cancelled?: number;
}

/** Our reason, then the provider's report as it came (status, error code, description): the code is what an operator looks up. */
const errorText = (r: RecipientStatus) =>
  [...new Set([r.error, r.errorDetail?.status, r.errorDetail?.code, r.errorDetail?.description].filter(Boolean))].join(' · ');

/** A sharing: its counters, its recipients (filtered, a page at a time), and the cancel button for a scheduled one. */
export function sharingPage(ctx: PageContext, p: SharingPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const s = p.sharing;
  const t = s.totals;
  const id = encodeURIComponent(s.sharingId);
  const link = (page: string | undefined) =>
    scoped(`/console/sharings/${id}`, p.viewer, p.accountId, { status: p.status, phone: p.phone, page });
  const rows = p.recipients.map(
    (r) => html`<tr>
<th scope="row">+${r.phone}</th>
<td><span class="status ${r.status}">${statusWord(w, r.status)}</span></td>
<td>${errorText(r)}</td>
<td>${r.encoding}</td>
<td class="num">${r.segments ? f.int(r.segments) : ''}</td>
<td>${f.dateTime(r.updatedAt)}</td>
</tr>`,
  );
  const stat = (label: string, n: number | undefined) => html`<div><dt>${label}</dt><dd>${f.int(n ?? 0)}</dd></div>`;
  return page(
    ctx,
    `${w.sharing} ${f.dateTime(s.createdAt)}`,
    html`<p><a href="${scoped(`/console/campaigns/${encodeURIComponent(s.campaignId)}`, p.viewer, p.accountId)}">${w.backToCampaign}</a></p>
<h1>${w.sharing} ${f.dateTime(s.createdAt)} <span class="status ${s.status}">${statusWord(w, s.status)}</span></h1>
${p.cancelled !== undefined ? html`<p class="notice" role="status">${fill(w.cancelledNotice, { n: f.int(p.cancelled) })}</p>` : ''}
<dl class="stats">
${stat(w.accepted, s.accepted)}${stat(w.rejected, s.rejected)}${stat(w.duplicate, s.duplicate)}${stat(w.sent, t?.sent)}
${stat(w.delivered, t?.delivered)}${stat(w.failed, t?.failed)}${stat(w.clicked, t?.clicked)}${stat(w.answered, t?.answered)}
${stat(w.segments, t?.segments)}
${s.scheduledFor ? html`<div><dt>${w.scheduledFor}</dt><dd>${f.dateTime(s.scheduledFor)}</dd></div>` : ''}
</dl>
${
  s.status === 'scheduled' && canAct(p.viewer.role)
    ? html`<form method="post" class="card" action="/console/sharings/${id}/cancel">${csrfField(p.viewer)}${
        p.viewer.accountId === null ? html`<input type="hidden" name="account" value="${p.accountId}">` : ''
      }<p>${w.cancelHint}</p><button type="submit" class="danger">${w.cancelSharing}</button></form>`
    : ''
}
<h2>${w.recipients}</h2>
<form method="get" class="filters card" action="/console/sharings/${id}">
${p.viewer.accountId === null ? html`<input type="hidden" name="account" value="${p.accountId}">` : ''}
<div><label for="status">${w.status}</label><select id="status" name="status">
<option value="">${w.anyStatus}</option>
${RECIPIENT_STATUSES.map((st) => html`<option value="${st}"${st === p.status ? html` selected` : ''}>${statusWord(w, st)}</option>`)}
</select></div>
<div><label for="phone">${w.phoneExact}</label><input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="off" value="${p.phone}"></div>
<div><button type="submit">${w.filter}</button></div>
</form>
${
  p.recipients.length === 0
    ? html`<p class="card">${w.noRecipients}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.recipients}${p.status ? html` · ${statusWord(w, p.status)}` : ''}</caption>
<thead><tr><th scope="col">${w.phone}</th><th scope="col">${w.status}</th><th scope="col">${w.error}</th><th scope="col">${w.encoding}</th><th scope="col" class="num">${w.segments}</th><th scope="col">${w.updated}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.recipients}">${p.firstPage ? '' : html`<a href="${link(undefined)}">${w.firstPage}</a>`}${
      p.nextPageToken ? html`<a rel="next" href="${link(p.nextPageToken)}">${w.nextPage}</a>` : ''
    }</nav>`,
  );
}
