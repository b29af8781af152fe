import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { csrfField, page, type PageContext } from './layout.views.js';
import { field, type FieldErrors } from './manage-scope.js';

/**
 * The signed-in person's own password: the current one, the new one twice. The fields are never
 * filled back in (a password is not echoed into a page); an error stands next to its field.
 */
export function passwordPage(ctx: PageContext, viewer: Viewer, errors: FieldErrors = {}): string {
  const w = ctx.words;
  const input = (id: string, name: string, autocomplete: string) => (a: ReturnType<typeof html>) =>
    html`<input id="${id}" name="${name}" type="password" autocomplete="${autocomplete}" required${a}>`;
  return page(
    ctx,
    w.pw_title,
    html`<div class="card narrow"><h1>${w.pw_title}</h1>
<p>${w.pw_intro}</p>
<form method="post" action="/console/password">
${csrfField(viewer)}
${field('pw-current', w.pw_current, input('pw-current', 'current_password', 'current-password'), errors.current_password)}
${field('pw-new', w.pw_new, input('pw-new', 'new_password', 'new-password'), errors.new_password)}
${field('pw-again', w.pw_again, input('pw-again', 'new_password2', 'new-password'), errors.new_password2)}
<button type="submit">${w.pw_submit}</button>
</form></div>`,
  );
}
