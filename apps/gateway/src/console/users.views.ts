import { ACCOUNT_ROLES, type Viewer } from '../accounts/domain/people.js';
import type { User } from '../accounts/domain/user.js';
import { html } from '../api/surveys/html.js';
import { fill, formatters } from './console.i18n.js';
import { scoped } from './console-page.js';
import { csrfField, page, type PageContext } from './layout.views.js';
import { field, type FieldErrors } from './manage-scope.js';

export interface Scope {
  viewer: Viewer;
  accountId: string;
  accountName: string;
}

const roleWord = (ctx: PageContext, role: string) => (ctx.words as unknown as Record<string, string>)[`role_${role}`] ?? role;
const accountHidden = (s: Scope) => (s.viewer.accountId === null ? html`<input type="hidden" name="account" value="${s.accountId}">` : '');
const accountLine = (ctx: PageContext, s: Scope) =>
  s.viewer.accountId === null
    ? html`<p class="muted">${ctx.words.account}: <a href="/console/accounts/${encodeURIComponent(s.accountId)}">${s.accountName}</a></p>`
    : '';

function roleSelect(ctx: PageContext, id: string, value: string, attrs = html``) {
  return html`<select id="${id}" name="role"${attrs}>${ACCOUNT_ROLES.map(
    (r) => html`<option value="${r}"${r === value ? html` selected` : ''}>${roleWord(ctx, r)}</option>`,
  )}</select>`;
}

export interface NewUserForm {
  values: { email: string; name: string; role: string };
  errors: FieldErrors;
}

/** The account's users a page at a time, and the form that adds one (with an invite link shown once). */
export function usersPage(
  ctx: PageContext,
  s: Scope,
  opts: {
    users: User[];
    nextPageToken: string;
    firstPage: boolean;
    timeZone: string;
    form?: NewUserForm;
    notice?: string;
    invite?: { name: string; url: string };
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, opts.timeZone);
  const form = opts.form ?? { values: { email: '', name: '', role: 'member' }, errors: {} };
  const e = form.errors;
  const rows = opts.users.map(
    (u) => html`<tr>
<th scope="row">${u.name}${u.id === s.viewer.userId ? html` <span class="muted">(${w.us_you})</span>` : ''}</th>
<td>${u.email}</td>
<td>${roleWord(ctx, u.role)}</td>
<td>${f.date(u.createdAt.toISOString())}</td>
<td><a href="${scoped(`/console/users/${encodeURIComponent(u.id)}`, s.viewer, s.accountId)}">${w.us_edit}<span class="skip"> ${u.name}</span></a></td>
</tr>`,
  );
  return page(
    ctx,
    w.us_title,
    html`<h1>${w.us_title}</h1>
${accountLine(ctx, s)}
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${
  opts.invite
    ? html`<div class="card" role="status"><p>${fill(w.us_inviteOnce, { name: opts.invite.name })}</p><p><code>${opts.invite.url}</code></p></div>`
    : ''
}
${
  opts.users.length === 0
    ? html`<p class="card">${w.us_none}</p>`
    : html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.us_title}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.email}</th><th scope="col">${w.us_role}</th><th scope="col">${w.created}</th><th scope="col"><span class="skip">${w.us_edit}</span></th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
<nav class="pager" aria-label="${w.us_title}">${opts.firstPage ? '' : html`<a href="${scoped('/console/users', s.viewer, s.accountId)}">${w.firstPage}</a>`}${
      opts.nextPageToken
        ? html`<a href="${scoped('/console/users', s.viewer, s.accountId, { page: opts.nextPageToken })}" rel="next">${w.nextPage}</a>`
        : ''
    }</nav>
<h2 id="add">${w.us_invite}</h2>
<form class="card" method="post" action="/console/users">
${csrfField(s.viewer)}${accountHidden(s)}
<p class="muted">${w.us_inviteHint}</p>
${field('u-email', w.email, (a) => html`<input id="u-email" name="email" type="email" required autocomplete="off" value="${form.values.email}"${a}>`, e.email)}
${field('u-name', w.name, (a) => html`<input id="u-name" name="name" type="text" required maxlength="200" value="${form.values.name}"${a}>`, e.name)}
${field('u-role', w.us_role, (a) => roleSelect(ctx, 'u-role', form.values.role, a), e.role)}
${field('u-password', w.us_passwordOptional, (a) => html`<input id="u-password" name="password" type="password" autocomplete="new-password"${a}>`, e.password)}
<p><button type="submit">${w.us_add}</button></p>
</form>`,
  );
}

/** One user: their name and role to change, and removing them. */
export function userPage(ctx: PageContext, s: Scope, opts: { user: User; errors?: FieldErrors; message?: string }): string {
  const w = ctx.words;
  const u = opts.user;
  const e = opts.errors ?? {};
  const action = `/console/users/${encodeURIComponent(u.id)}`;
  return page(
    ctx,
    u.name,
    html`<p><a href="${scoped('/console/users', s.viewer, s.accountId)}">${w.us_back}</a></p>
<h1>${u.name}</h1>
${accountLine(ctx, s)}
${opts.message ? html`<p class="alert" role="alert">${opts.message}</p>` : ''}
<p>${w.email}: ${u.email}</p>
<form class="card" method="post" action="${action}">
${csrfField(s.viewer)}${accountHidden(s)}
${field('e-name', w.name, (a) => html`<input id="e-name" name="name" type="text" required maxlength="200" value="${u.name}"${a}>`, e.name)}
${field('e-role', w.us_role, (a) => roleSelect(ctx, 'e-role', u.role, a), e.role)}
<p><button type="submit">${w.us_save}</button></p>
</form>
<form class="card" method="post" action="${action}/remove">
${csrfField(s.viewer)}${accountHidden(s)}
<p class="muted">${w.us_removeHint}</p>
<button type="submit" class="danger">${w.us_remove}</button>
</form>`,
  );
}
