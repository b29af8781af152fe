import type { Account } from '../accounts/domain/account.js';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { formatters } from './console.i18n.js';
import { csrfField, page, type PageContext } from './layout.views.js';
import { field, type FieldErrors } from './manage-scope.js';

const accountPath = (id: string) => `/console/accounts/${encodeURIComponent(id)}`;

/** The deployment's accounts a page at a time, and creating one. */
export function accountsPage(
  ctx: PageContext,
  opts: {
    viewer: Viewer;
    accounts: Account[];
    nextPageToken: string;
    firstPage: boolean;
    timeZone: string;
    form?: { name: string; errors: FieldErrors };
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, opts.timeZone);
  const form = opts.form ?? { name: '', errors: {} };
  const rows = opts.accounts.map(
    (a) =>
      html`<tr><th scope="row"><a href="${accountPath(a.id)}">${a.name}</a></th><td><code>${a.id}</code></td><td>${f.date(a.createdAt.toISOString())}</td></tr>`,
  );
  return page(
    ctx,
    w.ac_title,
    html`<h1>${w.ac_title}</h1>
${
  opts.accounts.length === 0
    ? html`<p class="card">${w.ac_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.ac_title}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.accountId}</th><th scope="col">${w.created}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
<nav class="pager" aria-label="${w.ac_title}">${opts.firstPage ? '' : html`<a href="/console/accounts">${w.firstPage}</a>`}${
      opts.nextPageToken
        ? html`<a href="/console/accounts?page=${encodeURIComponent(opts.nextPageToken)}" rel="next">${w.nextPage}</a>`
        : ''
    }</nav>
<h2>${w.ac_create}</h2>
<form class="card" method="post" action="/console/accounts">
${csrfField(opts.viewer)}
${field('a-name', w.name, (a) => html`<input id="a-name" name="name" type="text" required maxlength="200" value="${form.name}"${a}>`, form.errors.name)}
<p><button type="submit">${w.ac_createButton}</button></p>
</form>`,
  );
}

/** One account: what it is and where its campaigns, people, tokens, SMS provider and limits are. */
export function accountPage(ctx: PageContext, opts: { account: Account; timeZone: string }): string {
  const w = ctx.words;
  const a = opts.account;
  const q = `account=${encodeURIComponent(a.id)}`;
  const links: [string, string][] = [
    [`/console/?${q}`, w.campaigns],
    [`/console/users?${q}`, w.nav_users],
    [`/console/tokens?${q}`, w.nav_tokens],
    [`/console/sms-provider?${q}`, w.sp_title],
    [`/console/sms-limits?${q}`, w.sl_title],
  ];
  return page(
    ctx,
    a.name,
    html`<p><a href="/console/accounts">${w.ac_title}</a></p>
<h1>${a.name}</h1>
<dl class="stats"><div><dt>${w.accountId}</dt><dd><code>${a.id}</code></dd></div><div><dt>${w.created}</dt><dd>${formatters(ctx.lang, opts.timeZone).date(a.createdAt.toISOString())}</dd></div></dl>
<h2>${w.ac_links}</h2>
<ul class="card">${links.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}</ul>`,
  );
}
