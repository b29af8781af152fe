import type { SmsOptOut } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { fill, formatters } from './console.i18n.js';
import { canAct, scoped } from './console-page.js';
import { csrfField, page, type PageContext } from './layout.views.js';

export interface OptOutsPage {
  viewer: Viewer;
  accountId: string;
  /** The phone searched for; empty lists them all, newest first. */
  phone: string;
  optOuts: SmsOptOut[];
  nextPageToken: string;
  firstPage: boolean;
  /** Set after an add. */
  added?: { added: number; already: number };
  removed: boolean;
}

/** The account's opt-out list: search by phone, add phones, take one off (viewers read only). */
export function optOutsPage(ctx: PageContext, p: OptOutsPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const may = canAct(p.viewer.role);
  const account = p.viewer.accountId === null ? html`<input type="hidden" name="account" value="${p.accountId}">` : '';
  const source = (s: string) => (w as unknown as Record<string, string>)[`oo_src_${s}`] ?? s;
  const link = (page: string | undefined) => scoped('/console/opt-outs', p.viewer, p.accountId, { phone: p.phone, page });
  const rows = p.optOuts.map(
    (o) => html`<tr>
<th scope="row">+${o.phone}</th>
<td>${source(o.source)}</td>
<td>${f.dateTime(o.createdAt)}</td>
${
  may
    ? html`<td><form method="post" action="/console/opt-outs/remove">${csrfField(p.viewer)}${account}<input type="hidden" name="phone" value="${o.phone}"><button type="submit" class="danger" aria-label="${w.oo_remove} +${o.phone}">${w.oo_remove}</button></form></td>`
    : ''
}
</tr>`,
  );
  return page(
    ctx,
    w.oo_title,
    html`<h1>${w.oo_title}</h1>
${p.added ? html`<p class="notice" role="status">${fill(w.oo_added, { added: f.int(p.added.added), already: f.int(p.added.already) })}</p>` : ''}
${p.removed ? html`<p class="notice" role="status">${w.oo_removed}</p>` : ''}
<form method="get" class="filters card" action="/console/opt-outs">
${account}
<div><label for="phone">${w.oo_search}</label><input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="off" value="${p.phone}"></div>
<div><button type="submit">${w.filter}</button></div>
</form>
${
  p.optOuts.length === 0
    ? html`<p class="card">${p.phone ? w.oo_noMatch : w.oo_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.oo_title}</caption>
<thead><tr><th scope="col">${w.phone}</th><th scope="col">${w.oo_source}</th><th scope="col">${w.created}</th>${may ? html`<th scope="col">${w.oo_remove}</th>` : ''}</tr></thead>
<tbody>${rows}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.oo_title}">${p.firstPage ? '' : html`<a href="${link(undefined)}">${w.firstPage}</a>`}${
      p.nextPageToken ? html`<a rel="next" href="${link(p.nextPageToken)}">${w.nextPage}</a>` : ''
    }</nav>
${
  may
    ? html`<form method="post" class="card" action="/console/opt-outs">${csrfField(p.viewer)}${account}
<h2><label for="phones">${w.oo_add}</label></h2>
<textarea id="phones" name="phones" rows="4" required aria-describedby="phones-hint"></textarea>
<p id="phones-hint" class="hint">${w.oo_addHint}</p>
<button type="submit">${w.oo_addButton}</button></form>`
    : ''
}`,
  );
}
