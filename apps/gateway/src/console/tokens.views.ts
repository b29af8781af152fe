import { TOKEN_KINDS, type ApiToken } from '../accounts/domain/account.js';
import { html } from '../api/surveys/html.js';
import { formatters } from './console.i18n.js';
import { csrfField, page, type PageContext } from './layout.views.js';
import { field, type FieldErrors } from './manage-scope.js';
import type { Scope } from './users.views.js';

const kindWord = (ctx: PageContext, kind: string) => (ctx.words as unknown as Record<string, string>)[`tk_kind_${kind}`] ?? kind;

/** The account's tokens (never their secrets), creating one (its secret shown once) and revoking one. */
export function tokensPage(
  ctx: PageContext,
  s: Scope,
  opts: {
    tokens: ApiToken[];
    timeZone: string;
    form?: { values: { name: string; kind: string }; errors: FieldErrors };
    secret?: string;
    notice?: string;
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, opts.timeZone);
  const form = opts.form ?? { values: { name: '', kind: 'api' }, errors: {} };
  const hidden = s.viewer.accountId === null ? html`<input type="hidden" name="account" value="${s.accountId}">` : '';
  const rows = opts.tokens.map(
    (t) => html`<tr>
<th scope="row">${t.name}</th>
<td>${kindWord(ctx, t.kind)}</td>
<td>${f.date(t.createdAt.toISOString())}</td>
<td>${t.revokedAt ? html`${w.tk_revoked} ${f.dateTime(t.revokedAt.toISOString())}` : w.tk_active}</td>
<td>${
      t.revokedAt
        ? ''
        : html`<form method="post" action="/console/tokens/${encodeURIComponent(t.id)}/revoke">${csrfField(s.viewer)}${hidden}<button type="submit" class="danger">${w.tk_revoke}<span class="skip"> ${t.name}</span></button></form>`
    }</td>
</tr>`,
  );
  return page(
    ctx,
    w.tk_title,
    html`<h1>${w.tk_title}</h1>
${s.viewer.accountId === null ? html`<p class="muted">${w.account}: <a href="/console/accounts/${encodeURIComponent(s.accountId)}">${s.accountName}</a></p>` : ''}
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${opts.secret ? html`<div class="card" role="status"><p>${w.tk_secretOnce}</p><p><code>${opts.secret}</code></p></div>` : ''}
${
  opts.tokens.length === 0
    ? html`<p class="card">${w.tk_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.tk_title}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.tk_kind}</th><th scope="col">${w.created}</th><th scope="col">${w.status}</th><th scope="col"><span class="skip">${w.tk_revoke}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
<h2>${w.tk_create}</h2>
<form class="card" method="post" action="/console/tokens">
${csrfField(s.viewer)}${hidden}
${field('t-name', w.name, (a) => html`<input id="t-name" name="name" type="text" required maxlength="200" value="${form.values.name}"${a}>`, form.errors.name)}
${field(
  't-kind',
  w.tk_kind,
  (a) =>
    html`<select id="t-kind" name="kind"${a}>${TOKEN_KINDS.map(
      (k) => html`<option value="${k}"${k === form.values.kind ? html` selected` : ''}>${kindWord(ctx, k)}</option>`,
    )}</select>`,
  form.errors.kind,
)}
<p><button type="submit">${w.tk_createButton}</button></p>
</form>`,
  );
}
