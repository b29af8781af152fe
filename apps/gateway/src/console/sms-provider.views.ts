import { html } from '../api/surveys/html.js';
import { formatters } from './console.i18n.js';
import { page, type PageContext } from './layout.views.js';

// Messaging answers the settings masked already; a key that names a credential is masked here too,
// so a provider type whose masking messaging missed still never shows its secret on a page.
const SECRET_KEY = /pass|secret|token|key|auth|credential|signature/i;
const MASK = '••••••';

/** The provider's settings as path/value rows (nested objects and lists flattened: `dlr.method`, `headers[0]`). */
export function settingRows(value: unknown, path = ''): [string, string][] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${i}]`, v] as const)
      : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v] as const);
    return entries.flatMap(([p, v]) =>
      SECRET_KEY.test(p.split(/[.[]/).at(-1) ?? '') && v !== null && typeof v !== 'object'
        ? [[p, MASK] as [string, string]]
        : settingRows(v, p),
    );
  }
  return [[path, value === null ? '' : String(value)]];
}

/** An account's own SMS provider, read only, secrets never shown; none: the deployment's provider. */
export function smsProviderPage(
  ctx: PageContext,
  opts: { accountId: string; accountName: string; provider: { config: unknown; updatedAt: string } | null; timeZone: string },
): string {
  const w = ctx.words;
  const rows = opts.provider ? settingRows(opts.provider.config) : [];
  return page(
    ctx,
    w.sp_title,
    html`<p><a href="/console/accounts/${encodeURIComponent(opts.accountId)}">${opts.accountName}</a></p>
<h1>${w.sp_title}</h1>
${
  opts.provider
    ? html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.sp_title} · ${w.updated}: ${formatters(ctx.lang, opts.timeZone).dateTime(opts.provider.updatedAt)}</caption>
<thead><tr><th scope="col">${w.sp_setting}</th><th scope="col">${w.sp_value}</th></tr></thead>
<tbody>${rows.map(([k, v]) => html`<tr><th scope="row"><code>${k}</code></th><td>${v}</td></tr>`)}</tbody>
</table></div>`
    : html`<p class="card">${w.sp_none}</p>`
}
<p class="muted">${w.sp_readOnly}</p>`,
  );
}
