import { html } from '../api/surveys/html.js';
import { fill } from './console.i18n.js';
import { page, type PageContext } from './layout.views.js';

/**
 * The sign-in form; `message` is the one thing a failed attempt is told (never which field was wrong).
 * `sso`: the single sign-on provider's name, when the deployment has one (a link, not a form: it only starts the round trip).
 */
export function signInPage(ctx: PageContext, opts: { email?: string; message?: string; notice?: string; sso?: string } = {}): string {
  const w = ctx.words;
  return page(
    ctx,
    w.signIn,
    html`<div class="card narrow"><h1>${w.signIn}</h1>
${opts.message ? html`<p class="alert" role="alert">${opts.message}</p>` : ''}${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
<form method="post" action="/console/sign-in">
<label for="email">${w.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ''}"${opts.email ? '' : html` autofocus`}>
<label for="password">${w.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? html` autofocus` : ''}>
<button type="submit">${w.signIn}</button>
</form>${opts.sso ? html`<p class="sso">${w.ssoOr}<br><a href="/console/sso/start">${fill(w.ssoButton, { name: opts.sso })}</a></p>` : ''}</div>`,
  );
}

/** Setting the password of an invited person (the link's token is in the form's action, the URL it came from). */
export function invitePage(ctx: PageContext, opts: { action: string; message?: string }): string {
  const w = ctx.words;
  return page(
    ctx,
    w.inviteTitle,
    html`<div class="card narrow"><h1>${w.inviteTitle}</h1>
${opts.message ? html`<p class="alert" role="alert">${opts.message}</p>` : ''}
<form method="post" action="${opts.action}">
<label for="password">${w.password}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required autofocus>
<label for="password2">${w.passwordAgain}</label>
<input id="password2" name="password2" type="password" autocomplete="new-password" required>
<button type="submit">${w.setPassword}</button>
</form></div>`,
  );
}

/** An invitation that cannot be used (unknown, used, expired): nothing to fill in. */
export function inviteInvalidPage(ctx: PageContext): string {
  const w = ctx.words;
  return page(
    ctx,
    w.inviteTitle,
    html`<div class="card narrow"><h1>${w.inviteTitle}</h1><p class="alert" role="alert">${w.inviteInvalid}</p><p><a href="/console/sign-in">${w.signIn}</a></p></div>`,
  );
}
