import { createHash } from 'node:crypto';

/**
 * The console's one style sheet, served as a file (/console/assets/console-<hash>.css) so the
 * Content-Security-Policy needs no inline style; the hash in its name lets browsers keep it for a year.
 * Mobile first (390 px), a wider grid from 48rem; focus always visible.
 * A wide table scrolls sideways in its .table-wrap on a phone: the views give the wrap tabindex="0"
 * (no script can tell which overflow), so a keyboard reaches it and scrolls it with the arrows.
 */
export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f4f5f7;color:#1d2430;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#2f4bbf}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible,.table-wrap:focus-visible{outline:3px solid #a4bcfd;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
header.top{background:#1d2430;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
header.top a{color:#fff}
header.top .brand{font-weight:700;text-decoration:none}
header.top nav,header.top .who{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}
header.top .who form{margin:0}
header.top button{background:none;border:1px solid #667085;color:#fff;padding:.3rem .7rem;width:auto}
.langs a[aria-current]{font-weight:700;text-decoration:none}
main{max-width:72rem;margin:0 auto;padding:1rem 1rem 3rem}
h1{font-size:1.4rem;line-height:1.25;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.75rem 0 .75rem}
.muted{color:#667085}
.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(16,24,40,.1);padding:1rem;margin:0 0 1rem}
.narrow{max-width:26rem;margin:2rem auto}
.notice{background:#ecfdf3;color:#05603a;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.alert{background:#fef3f2;color:#b42318;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem;font-weight:600}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text],input[type=tel],input[type=date],select{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid #d0d5dd;border-radius:8px;background:#fff;color:inherit}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;border-radius:8px;background:#3a5bd9;color:#fff;cursor:pointer}
button:hover{background:#2f4bbf}
button.danger{background:#b42318}
button.danger:hover{background:#912018}
.narrow button{width:100%;margin-top:1rem}
.sso{margin:1.25rem 0 0;text-align:center;color:#667085}
.sso a{display:block;margin-top:.5rem;padding:.6rem 1.2rem;border:1px solid #3a5bd9;border-radius:8px;font-weight:600;text-decoration:none}
input[type=url],input[type=file],textarea{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid #d0d5dd;border-radius:8px;background:#fff;color:inherit}
textarea:focus-visible{outline:3px solid #a4bcfd;outline-offset:2px}
.hint{color:#667085;font-size:.85rem;margin:.25rem 0 .75rem}
fieldset{border:1px solid #d0d5dd;border-radius:8px;margin:.75rem 0;padding:.25rem .75rem .5rem}
label.check{font-weight:400;margin:.35rem 0}
.secret{display:block;overflow-wrap:anywhere;font-size:1rem}
.attempts{margin:0;padding-left:1.2rem;white-space:normal}
.pairs{display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.35rem 1rem;margin:0}.pairs dt{color:#667085}.pairs dd{margin:0;overflow-wrap:anywhere}
.status.processed,.status.succeeded{background:#d1fadf;color:#05603a}.status.pending{background:#e0eaff;color:#2f4bbf}
.filters{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:flex-end}
.filters>div{flex:1 1 100%}
.filters label{margin:0 0 .25rem}
.table-wrap{overflow-x:auto;background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(16,24,40,.1)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;padding:.6rem .75rem;font-weight:600}
th,td{padding:.5rem .75rem;border-bottom:1px solid #eaecf0;text-align:left;white-space:nowrap}
td.num,th.num{text-align:right}
tbody tr:last-child td{border-bottom:0}
.pager{display:flex;gap:1rem;flex-wrap:wrap;margin:.75rem 0}
.funnel{list-style:none;padding:0;margin:0;display:grid;gap:.5rem;grid-template-columns:repeat(2,1fr)}
.funnel li{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(16,24,40,.1);padding:.75rem}
.funnel .n{display:block;font-size:1.4rem;font-weight:700;font-variant-numeric:tabular-nums}
.funnel .rate{color:#667085;font-size:.85rem}
.big{font-size:2rem;font-weight:700}
.chart{width:100%;height:auto;display:block;background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(16,24,40,.1)}
.chart text{font-size:11px;fill:#667085}
.legend{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.75rem}
.legend li::before{content:"";display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.35rem;vertical-align:-1px}
.s-sent::before{background:#3a5bd9}.s-delivered::before{background:#12b76a}.s-clicked::before{background:#f79009}.s-answered::before{background:#9e77ed}
.status{display:inline-block;padding:.05rem .5rem;border-radius:999px;background:#eaecf0;font-size:.85rem}
.status.delivered,.status.completed{background:#d1fadf;color:#05603a}
.status.failed,.status.cancelled{background:#fee4e2;color:#912018}
.status.scheduled,.status.queued,.status.sending,.status.in_progress{background:#e0eaff;color:#2f4bbf}
.stats{display:grid;grid-template-columns:repeat(2,1fr);gap:.5rem;margin:0}
.stats div{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(16,24,40,.1);padding:.6rem .75rem}
.stats dt{color:#667085;font-size:.85rem}.stats dd{margin:0;font-weight:700;font-variant-numeric:tabular-nums}
@media (min-width:48rem){h1{font-size:1.7rem}.funnel{grid-template-columns:repeat(4,1fr)}.stats{grid-template-columns:repeat(4,1fr)}.filters>div{flex:0 1 16rem}.filters>div:last-child{flex:0 0 auto}}
`;

const hash = createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 16);

/** Where the style sheet is served; a changed sheet gets a new name. */
export const CONSOLE_CSS_PATH = `/console/assets/console-${hash}.css`;

/**
 * Nothing but this origin's files: no script is served (script-src 'self' admits only ours), no
 * inline style or script, forms only to this origin, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
