import type { LimitsInForce, TierUsage } from '@feedback/kit-limits';
import type { Viewer } from '../accounts/domain/people.js';
import { html, type Html } from '../api/surveys/html.js';
import { fill, formatters, type Words } from './console.i18n.js';
import { csrfField, page, type PageContext } from './layout.views.js';
import { field, type FieldErrors } from './manage-scope.js';

/** A limits form as typed: on or off, and one row per tier (an empty row is no tier). */
export interface LimitsForm {
  enabled: boolean;
  rows: { name: string; limit: string; window: string }[];
  errors: FieldErrors;
}

/** Room for one tier more than in force (the file allows 16). */
export function formOf(inForce: LimitsInForce): LimitsForm {
  const rows = inForce.config.tiers.map((t) => ({ name: t.name, limit: String(t.limit), window: String(t.windowSeconds) }));
  while (rows.length < Math.min(16, Math.max(4, inForce.config.tiers.length + 1))) rows.push({ name: '', limit: '', window: '' });
  return { enabled: inForce.config.enabled, rows, errors: {} };
}

const sourceWord = (w: Words, origin: string) => (w as unknown as Record<string, string>)[`sl_src_${origin}`] ?? origin;

function limitsForm(
  w: Words,
  viewer: Viewer,
  o: { prefix: string; action: string; form: LimitsForm; button: string; account?: string },
): Html {
  const e = o.form.errors;
  const p = o.prefix;
  const rows = o.form.rows.map((r, i) => {
    const cell = (key: 'name' | 'limit' | 'window', label: string, value: string, numeric: boolean) => {
      const id = `${p}-tier${i}-${key}`;
      return html`<td>${field(
        id,
        label,
        (a) =>
          html`<input id="${id}" name="tier${i}_${key}" type="text"${numeric ? html` inputmode="numeric" pattern="[0-9]*"` : ''} value="${value}"${a}>`,
        e[`tier${i}_${key}`],
      )}</td>`;
    };
    return html`<tr>${cell('name', `${w.sl_tier} ${i + 1}`, r.name, false)}${cell('limit', w.sl_limit, r.limit, true)}${cell('window', w.sl_window, r.window, true)}</tr>`;
  });
  return html`<form class="card" method="post" action="${o.action}">
${csrfField(viewer)}${o.account ? html`<input type="hidden" name="account" value="${o.account}">` : ''}
<label><input type="checkbox" name="enabled" value="on"${o.form.enabled ? html` checked` : ''}> ${w.sl_enabled}</label>
${e.tiers ? html`<p class="alert" role="alert">${e.tiers}</p>` : ''}
<div class="table-wrap" tabindex="0"><table><tbody>${rows}</tbody></table></div>
<p><button type="submit">${o.button}</button></p>
</form>`;
}

function tiersTable(w: Words, inForce: LimitsInForce): Html {
  if (!inForce.config.enabled) return html`<p class="card">${w.sl_off}</p>`;
  return html`<div class="table-wrap" tabindex="0"><table>
<thead><tr><th scope="col">${w.sl_tier}</th><th scope="col" class="num">${w.sl_limit}</th><th scope="col" class="num">${w.sl_window}</th></tr></thead>
<tbody>${inForce.config.tiers.map((t) => html`<tr><th scope="row">${t.name}</th><td class="num">${t.limit}</td><td class="num">${t.windowSeconds}</td></tr>`)}</tbody>
</table></div>`;
}

/**
 * The deployment's four (or however many) tiers and where they come from, editable; and for a
 * chosen account, how full each tier is now and its own limits.
 */
export function smsLimitsPage(
  ctx: PageContext,
  o: {
    viewer: Viewer;
    timeZone: string;
    deployment: LimitsInForce;
    accountsWithOwn: number;
    deploymentForm?: LimitsForm;
    saved?: boolean;
    account?: { id: string; name: string; inForce: LimitsInForce; usage: TierUsage; form?: LimitsForm };
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, o.timeZone);
  const d = o.deployment;
  const a = o.account;
  const resetButton = (action: string, label: string, account?: string) =>
    html`<form method="post" action="${action}">${csrfField(o.viewer)}${account ? html`<input type="hidden" name="account" value="${account}">` : ''}<button type="submit" class="danger">${label}</button></form>`;
  const accountPart = a
    ? html`<h3>${a.name}</h3>
<p>${w.sl_source}: ${sourceWord(w, a.inForce.origin)}${a.inForce.updatedAt ? html` · ${w.updated}: ${f.dateTime(a.inForce.updatedAt.toISOString())}` : ''}</p>
${
  a.inForce.config.enabled
    ? html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.sl_forAccount}</caption>
<thead><tr><th scope="col">${w.sl_tier}</th><th scope="col" class="num">${w.sl_used}</th><th scope="col" class="num">${w.sl_limit}</th><th scope="col" class="num">${w.sl_window}</th><th scope="col">${w.sl_resetsAt}</th></tr></thead>
<tbody>${a.usage.tiers.map(
        (t) =>
          html`<tr><th scope="row">${t.name}</th><td class="num">${t.used}</td><td class="num">${t.limit}</td><td class="num">${t.windowSeconds}</td><td>${t.endsAtMs === null ? w.sl_noWindow : f.dateTime(new Date(t.endsAtMs).toISOString())}</td></tr>`,
      )}</tbody>
</table></div>`
    : html`<p class="card">${w.sl_off}</p>`
}
<h3>${w.sl_override}</h3>
${limitsForm(w, o.viewer, { prefix: 'a', action: '/console/sms-limits/account', form: a.form ?? formOf(a.inForce), button: w.sl_saveOverride, account: a.id })}
${a.inForce.origin === 'account' ? resetButton('/console/sms-limits/account/reset', w.sl_removeOverride, a.id) : ''}`
    : html`<form class="card filters" method="get" action="/console/sms-limits"><div><label for="account">${w.accountId}</label><input id="account" name="account" type="text" required autocomplete="off" spellcheck="false"></div><div><button type="submit">${w.open}</button></div></form>`;
  return page(
    ctx,
    w.sl_title,
    html`<h1>${w.sl_title}</h1>
${o.saved ? html`<p class="notice" role="status">${w.sl_savedNotice}</p>` : ''}
<h2>${w.sl_deployment}</h2>
<p>${w.sl_source}: ${sourceWord(w, d.origin)}${d.updatedAt ? html` · ${w.updated}: ${f.dateTime(d.updatedAt.toISOString())}` : ''} · ${fill(w.sl_accountsWithOwn, { n: o.accountsWithOwn })}</p>
${tiersTable(w, d)}
<h3>${w.sl_edit}</h3>
<p class="muted">${w.sl_editHint}</p>
${limitsForm(w, o.viewer, { prefix: 'd', action: '/console/sms-limits', form: o.deploymentForm ?? formOf(d), button: w.sl_save })}
${d.origin === 'stored' ? resetButton('/console/sms-limits/reset', w.sl_reset) : ''}
<h2>${w.sl_forAccount}</h2>
${accountPart}`,
  );
}
