import type { GetSmsSharingResponse, RecipientStatus } from '@feedback/proto/feedback/messaging/v1/messaging';
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
  sharing: GetSmsSharingResponse;
  /** This page's recipients, after the filter. */
  recipients: RecipientStatus[];
  /** How many match the filter, and where this page starts (0-based). */
  matching: number;
  offset: number;
  page: number;
  pageSize: number;
  status: string;
  phone: string;
  /** Whether its first messages are still due (cancel makes sense). */
  scheduled: boolean;
  /** Set after a cancel: how many will not be texted. */
  cancelled?: number;
}

/** A sharing: its counts, its recipients (filtered, a page at a time), and the cancel button for a scheduled one. */
export function sharingPage(ctx: PageContext, p: SharingPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const s = p.sharing;
  const id = encodeURIComponent(s.sharingId);
  const link = (pageNo: number) =>
    scoped(`/console/sharings/${id}`, p.viewer, p.accountId, {
      status: p.status,
      phone: p.phone,
      page: pageNo > 1 ? String(pageNo) : undefined,
    });
  const last = Math.max(1, Math.ceil(p.matching / p.pageSize));
  const state = s.cancelledAt ? 'cancelled' : p.scheduled ? 'scheduled' : '';
  const rows = p.recipients.map(
    (r) => html`<tr>
<th scope="row">+${r.phone}</th>
<td><span class="status ${r.status}">${statusWord(w, r.status)}</span></td>
<td>${[r.error, r.errorDetail?.description].filter(Boolean).join(' · ')}</td>
<td>${r.encoding}</td>
<td class="num">${r.segments ? f.int(r.segments) : ''}</td>
<td>${f.dateTime(r.updatedAt)}</td>
</tr>`,
  );
  return page(
    ctx,
    `${w.sharing} ${f.dateTime(s.createdAt)}`,
    html`<p><a href="${scoped(`/console/campaigns/${encodeURIComponent(s.campaignId)}`, p.viewer, p.accountId)}">${w.backToCampaign}</a></p>
<h1>${w.sharing} ${f.dateTime(s.createdAt)}${state ? html` <span class="status ${state}">${statusWord(w, state)}</span>` : ''}</h1>
${p.cancelled !== undefined ? html`<p class="notice" role="status">${fill(w.cancelledNotice, { n: f.int(p.cancelled) })}</p>` : ''}
<dl class="stats">
<div><dt>${w.accepted}</dt><dd>${f.int(s.accepted)}</dd></div>
<div><dt>${w.rejected}</dt><dd>${f.int(s.rejectedPhones.length)}</dd></div>
<div><dt>${w.duplicate}</dt><dd>${f.int(s.duplicate)}</dd></div>
<div><dt>${w.delivered}</dt><dd>${f.int(s.counts?.delivered ?? 0)}</dd></div>
<div><dt>${w.failed}</dt><dd>${f.int(s.counts?.failed ?? 0)}</dd></div>
<div><dt>${w.clicked}</dt><dd>${f.int(s.funnel?.clicked ?? 0)}</dd></div>
<div><dt>${w.answered}</dt><dd>${f.int(s.funnel?.answered ?? 0)}</dd></div>
<div><dt>${w.segments}</dt><dd>${f.int(s.segments)}</dd></div>
${s.scheduledFor ? html`<div><dt>${w.scheduledFor}</dt><dd>${f.dateTime(s.scheduledFor)}</dd></div>` : ''}
</dl>
${
  p.scheduled && !s.cancelledAt && canAct(p.viewer.role)
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
    : html`<div class="table-wrap"><table>
<caption>${fill(w.showing, { a: f.int(p.offset + 1), b: f.int(p.offset + p.recipients.length), n: f.int(p.matching) })}</caption>
<thead><tr><th scope="col">${w.phone}</th><th scope="col">${w.status}</th><th scope="col">${w.error}</th><th scope="col">${w.encoding}</th><th scope="col" class="num">${w.segments}</th><th scope="col">${w.updated}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.recipients}">${p.page > 1 ? html`<a rel="prev" href="${link(p.page - 1)}">${w.previousPage}</a>` : ''}${
      p.page < last ? html`<a rel="next" href="${link(p.page + 1)}">${w.nextPage}</a>` : ''
    }</nav>`,
  );
}
