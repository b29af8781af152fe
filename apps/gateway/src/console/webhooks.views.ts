import type { Delivery, Endpoint } from '@feedback/proto/feedback/webhooks/v1/webhooks';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { formatters, statusWord } from './console.i18n.js';
import { scoped } from './console-page.js';
import { csrfField, page, type PageContext } from './layout.views.js';

const accountField = (viewer: Viewer, accountId: string) =>
  viewer.accountId === null ? html`<input type="hidden" name="account" value="${accountId}">` : '';

/** The account's endpoints, a page at a time, and the form that adds one. */
export function webhooksPage(
  ctx: PageContext,
  p: { viewer: Viewer; accountId: string; endpoints: Endpoint[]; nextPageToken: string; firstPage: boolean; eventTypes: readonly string[] },
  timeZone: string,
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const link = (page: string | undefined) => scoped('/console/webhooks', p.viewer, p.accountId, { page });
  const rows = p.endpoints.map(
    (e) => html`<tr>
<th scope="row"><a href="${scoped(`/console/webhooks/${encodeURIComponent(e.id)}`, p.viewer, p.accountId)}">${e.url}</a></th>
<td>${e.description}</td>
<td>${e.events.join(', ')}</td>
<td><span class="status ${e.enabled ? 'delivered' : 'failed'}">${e.enabled ? w.wh_enabled : w.wh_disabled}</span></td>
<td>${f.dateTime(e.createdAt)}</td>
</tr>`,
  );
  return page(
    ctx,
    w.wh_title,
    html`<h1>${w.wh_title}</h1>
${
  p.endpoints.length === 0
    ? html`<p class="card">${w.wh_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.wh_title}</caption>
<thead><tr><th scope="col">${w.wh_url}</th><th scope="col">${w.wh_description}</th><th scope="col">${w.wh_events}</th><th scope="col">${w.status}</th><th scope="col">${w.created}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.wh_title}">${p.firstPage ? '' : html`<a href="${link(undefined)}">${w.firstPage}</a>`}${
      p.nextPageToken ? html`<a rel="next" href="${link(p.nextPageToken)}">${w.nextPage}</a>` : ''
    }</nav>
<form method="post" class="card" action="/console/webhooks">${csrfField(p.viewer)}${accountField(p.viewer, p.accountId)}
<h2>${w.wh_create}</h2>
<label for="url">${w.wh_url}</label>
<input id="url" name="url" type="url" required autocomplete="off" spellcheck="false" placeholder="https://">
<fieldset><legend>${w.wh_events}</legend>
${p.eventTypes.map((t, i) => html`<label class="check"><input type="checkbox" id="event-${i}" name="events" value="${t}"> ${t}</label>`)}
</fieldset>
<label for="description">${w.wh_description}</label>
<input id="description" name="description" type="text" maxlength="200" autocomplete="off">
<button type="submit">${w.wh_createButton}</button>
</form>`,
  );
}

export interface WebhookPage {
  viewer: Viewer;
  accountId: string;
  endpoint: Endpoint;
  deliveries: Delivery[];
  nextPageToken: string;
  firstPage: boolean;
  /** Right after a create or a rotate: the secret, shown this once. */
  secret?: string;
  replayed: boolean;
}

/** An endpoint: enable or disable it, rotate its secret, and its deliveries with every attempt (each may be sent again). */
export function webhookPage(ctx: PageContext, p: WebhookPage, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const e = p.endpoint;
  const id = encodeURIComponent(e.id);
  const fields = html`${csrfField(p.viewer)}${accountField(p.viewer, p.accountId)}`;
  const link = (page: string | undefined) => scoped(`/console/webhooks/${id}`, p.viewer, p.accountId, { page });
  const delivery = (d: Delivery) => html`<tr>
<td>${f.dateTime(d.createdAt)}</td>
<td>${d.eventType}</td>
<td><span class="status ${d.status === 'succeeded' ? 'delivered' : d.status}">${statusWord(w, d.status)}</span>${d.note ? html` ${d.note}` : ''}</td>
<td><ol class="attempts">${d.attempts.map(
    (a) =>
      html`<li>${f.dateTime(a.at)} · ${w.wh_http} ${a.statusCode || '–'} · ${f.int(a.latencyMs)} ms${a.error ? html` · ${a.error}` : ''}</li>`,
  )}</ol></td>
<td>${f.dateTime(d.nextAttemptAt)}</td>
<td><form method="post" action="/console/webhooks/${id}/deliveries/${encodeURIComponent(d.id)}/replay">${fields}<button type="submit">${w.wh_replay}</button></form></td>
</tr>`;
  return page(
    ctx,
    e.url,
    html`<p><a href="${scoped('/console/webhooks', p.viewer, p.accountId)}">${w.wh_back}</a></p>
<h1>${e.url} <span class="status ${e.enabled ? 'delivered' : 'failed'}">${e.enabled ? w.wh_enabled : w.wh_disabled}</span></h1>
${
  p.secret ? html`<div class="card notice" role="status"><p>${w.wh_secretOnce}</p><p><code class="secret">${p.secret}</code></p></div>` : ''
}
${p.replayed ? html`<p class="notice" role="status">${w.wh_replayed}</p>` : ''}
<dl class="stats">
<div><dt>${w.wh_events}</dt><dd>${e.events.join(', ')}</dd></div>
<div><dt>${w.wh_description}</dt><dd>${e.description}</dd></div>
<div><dt>${w.created}</dt><dd>${f.dateTime(e.createdAt)}</dd></div>
${e.previousSecretExpiresAt ? html`<div><dt>${w.wh_previousSecretUntil}</dt><dd>${f.dateTime(e.previousSecretExpiresAt)}</dd></div>` : ''}
${e.disabledReason ? html`<div><dt>${w.wh_disabled}</dt><dd>${e.disabledReason}</dd></div>` : ''}
</dl>
<form method="post" class="card" action="/console/webhooks/${id}/enabled">${fields}
<input type="hidden" name="enabled" value="${e.enabled ? 'false' : 'true'}">
<button type="submit"${e.enabled ? html` class="danger"` : ''}>${e.enabled ? w.wh_disable : w.wh_enable}</button></form>
<form method="post" class="card" action="/console/webhooks/${id}/rotate">${fields}
<p>${w.wh_rotateHint}</p><button type="submit">${w.wh_rotate}</button></form>
<h2>${w.wh_deliveries}</h2>
${
  p.deliveries.length === 0
    ? html`<p class="card">${w.wh_noDeliveries}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.wh_deliveries}</caption>
<thead><tr><th scope="col">${w.created}</th><th scope="col">${w.wh_event}</th><th scope="col">${w.status}</th><th scope="col">${w.wh_attempts}</th><th scope="col">${w.wh_nextAttempt}</th><th scope="col">${w.wh_replay}</th></tr></thead>
<tbody>${p.deliveries.map(delivery)}</tbody></table></div>`
}
<nav class="pager" aria-label="${w.wh_deliveries}">${p.firstPage ? '' : html`<a href="${link(undefined)}">${w.firstPage}</a>`}${
      p.nextPageToken ? html`<a rel="next" href="${link(p.nextPageToken)}">${w.nextPage}</a>` : ''
    }</nav>`,
  );
}
