import { FileProcessingStatus, type File } from '@feedback/proto/feedback/file/v1/file';
import type { SmsCampaign } from '@feedback/proto/feedback/messaging/v1/messaging';
import type { Viewer } from '../accounts/domain/people.js';
import { html } from '../api/surveys/html.js';
import { fill, formatters, statusWord } from './console.i18n.js';
import { canAct, scoped } from './console-page.js';
import { csrfField, page, type PageContext } from './layout.views.js';

export interface BoundDirectory {
  directoryId: string;
  directoryName: string;
  /** The name an upload must have for the workflow to take it. */
  fileName: string;
}

/** The operator's chosen account rides along in every form (account users never need it). */
const accountField = (viewer: Viewer, accountId: string) =>
  viewer.accountId === null ? html`<input type="hidden" name="account" value="${accountId}">` : '';

/** A campaign's bound directories, each with an upload form (a viewer sees them without the forms). */
export function uploadsPage(
  ctx: PageContext,
  p: {
    viewer: Viewer;
    accountId: string;
    campaigns: SmsCampaign[];
    campaignId: string;
    bindings: BoundDirectory[];
    maxUploadBytes: number;
  },
): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, 'UTC');
  const may = canAct(p.viewer.role);
  const chooser = html`<form method="get" class="filters card" action="/console/uploads">
${accountField(p.viewer, p.accountId)}
<div><label for="campaign">${w.up_campaign}</label><select id="campaign" name="campaign">
${p.campaigns.map((c) => html`<option value="${c.id}"${c.id === p.campaignId ? html` selected` : ''}>${c.name}</option>`)}
</select></div>
<div><button type="submit">${w.up_choose}</button></div>
</form>`;
  // The hidden fields come before the file: the server reads them before a byte of it.
  const form = (
    b: BoundDirectory,
    i: number,
  ) => html`<form method="post" class="card" action="/console/uploads" enctype="multipart/form-data">
<h2>${w.up_directory}: ${b.directoryName}</h2>
<p>${w.up_fileName}: <code>${b.fileName}</code></p>
${csrfField(p.viewer)}${accountField(p.viewer, p.accountId)}
<input type="hidden" name="campaign" value="${p.campaignId}">
<input type="hidden" name="directory_id" value="${b.directoryId}">
<input type="hidden" name="filename" value="${b.fileName}">
<label for="file-${i}">${w.up_file}</label>
<input id="file-${i}" name="file" type="file" accept=".csv,text/csv" required aria-describedby="hint-${i}">
<p id="hint-${i}" class="hint">${fill(w.up_hint, { n: f.int(p.maxUploadBytes) })}</p>
<button type="submit">${w.up_send}</button>
</form>`;
  const readOnly = (b: BoundDirectory) =>
    html`<div class="card"><h2>${w.up_directory}: ${b.directoryName}</h2><p>${w.up_fileName}: <code>${b.fileName}</code></p></div>`;
  return page(
    ctx,
    w.up_title,
    html`<h1>${w.up_title}</h1>
${
  p.campaigns.length === 0
    ? html`<p class="card">${w.up_noCampaigns}</p>`
    : html`${chooser}${may ? '' : html`<p class="notice">${w.up_readOnly}</p>`}${
        p.bindings.length === 0 ? html`<p class="card">${w.up_noBindings}</p>` : p.bindings.map((b, i) => (may ? form(b, i) : readOnly(b)))
      }`
}`,
  );
}

const PROCESSING: Record<number, string> = {
  [FileProcessingStatus.FILE_PROCESSING_STATUS_PENDING]: 'pending',
  [FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED]: 'processed',
  [FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED]: 'failed',
};

/** What the workflow made of an upload: rows accepted and refused (with why), the sharing; reloads itself while pending. */
export function uploadOutcomePage(ctx: PageContext, p: { viewer: Viewer; accountId: string; file: File }, timeZone: string): string {
  const w = ctx.words;
  const f = formatters(ctx.lang, timeZone);
  const { file } = p;
  const pr = file.processing;
  const status = pr ? (PROCESSING[pr.status] ?? 'pending') : '';
  const stat = (label: string, n: number) => html`<div><dt>${label}</dt><dd>${f.int(n)}</dd></div>`;
  const body = html`<p><a href="${scoped('/console/uploads', p.viewer, p.accountId)}">${w.up_another}</a></p>
<h1>${w.up_outcome}: ${file.filename}${status ? html` <span class="status ${status}">${statusWord(w, status)}</span>` : ''}</h1>
<dl class="stats">
<div><dt>${w.up_directory}</dt><dd>${file.directoryName}</dd></div>
<div><dt>${w.up_size}</dt><dd>${f.int(Number(file.size))}</dd></div>
<div><dt>${w.created}</dt><dd>${f.dateTime(file.createdAt)}</dd></div>
${pr && status !== 'pending' ? html`${stat(w.up_rows, pr.rows)}${stat(w.accepted, pr.accepted)}${stat(w.rejected, pr.rejected)}` : ''}
</dl>
${!pr ? html`<p class="card">${w.up_notBound}</p>` : ''}
${status === 'pending' ? html`<p class="notice" role="status">${w.up_pendingNotice}</p>` : ''}
${pr?.reason ? html`<div class="card"><h2>${w.up_fileReason}</h2><p class="alert">${pr.reason}</p></div>` : ''}
${
  pr?.sharingId
    ? html`<p class="card">${w.up_sharingMade}: <a href="${scoped(`/console/sharings/${encodeURIComponent(pr.sharingId)}`, p.viewer, p.accountId)}">${pr.sharingId}</a></p>`
    : ''
}
${
  pr && pr.errors.length
    ? html`<div class="table-wrap" tabindex="0"><table>
<caption>${w.up_refused}</caption>
<thead><tr><th scope="col" class="num">${w.up_row}</th><th scope="col">${w.up_reason}</th></tr></thead>
<tbody>${pr.errors.map((e) => html`<tr><td class="num">${f.int(e.row)}</td><td>${e.reason}</td></tr>`)}</tbody></table></div>`
    : ''
}`;
  const html_ = page(ctx, `${w.up_outcome}: ${file.filename}`, body);
  // No script: a pending outcome asks the browser to reload it (a meta refresh is not a script, the CSP allows it).
  return status === 'pending'
    ? html_.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta http-equiv="refresh" content="2">')
    : html_;
}
