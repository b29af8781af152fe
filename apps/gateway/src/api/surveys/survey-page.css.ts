import { createHash } from 'node:crypto';

/** The page's only style, inline: the Content-Security-Policy admits exactly this text by its hash. */
export const SURVEY_PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f4f5f7;color:#1d2430;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:40rem;margin:0 auto;padding:1.25rem 1rem 3rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 1rem}
.hello{color:#4a5565;margin:0 0 1rem}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.1);padding:1.5rem 1.25rem}
.q{border:0;margin:0 0 1rem;padding:1rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.1);min-width:0}
.q legend{float:left;width:100%;padding:0;margin:0 0 .75rem;font-weight:600;overflow-wrap:anywhere}
.q legend+*{clear:both}
.statement p{margin:0;overflow-wrap:anywhere}
.req{color:#b42318;text-decoration:none;border:0}
.invalid{outline:2px solid #d92d20}
.error{clear:both;color:#b42318;font-weight:600;margin:0 0 .5rem}
.summary{background:#fef3f2;color:#b42318;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem;font-weight:600}
.options{display:grid;gap:.5rem}
.option{display:flex;gap:.6rem;align-items:center;padding:.7rem .8rem;border:1px solid #d0d5dd;border-radius:8px;cursor:pointer;overflow-wrap:anywhere}
.option input{width:1.2rem;height:1.2rem;margin:0;flex:none;accent-color:#3a5bd9}
.scale{display:flex;flex-wrap:wrap;gap:.35rem}
.point{flex:1 1 0;min-width:0;position:relative}
.scale.wide .point{flex-basis:100%}
.scale.nps{display:grid;grid-template-columns:repeat(11,1fr)}
@media (max-width:30rem){.scale.nps{grid-template-columns:repeat(6,1fr)}}
.point input{position:absolute;opacity:0;inset:0;margin:0}
.point span{display:block;text-align:center;padding:.65rem .1rem;border:1px solid #d0d5dd;border-radius:8px;cursor:pointer;min-height:2.75rem;overflow-wrap:anywhere}
.star_rating .point span{color:#c77c00}
.emoji_rating .point span{font-size:1.4rem;padding:.35rem .25rem}
.point input:checked+span{background:#3a5bd9;border-color:#3a5bd9;color:#fff}
.point input:focus-visible+span,.option:focus-within{outline:3px solid #a4bcfd;outline-offset:1px}
.ends{display:flex;justify-content:space-between;gap:1rem;color:#667085;font-size:.85rem;margin-top:.35rem}
input[type=text],input[type=email],input[type=tel],input[type=date],select,textarea{width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #d0d5dd;border-radius:8px;background:#fff;color:inherit}
textarea{resize:vertical}
button{width:100%;font:inherit;font-weight:600;padding:.85rem;border:0;border-radius:10px;background:#3a5bd9;color:#fff;cursor:pointer}
button:hover{background:#2f4bbf}
.opt-out{margin-top:2.5rem;text-align:center}
.opt-out button.secondary{width:auto;background:none;color:#667085;font-weight:400;text-decoration:underline;padding:.5rem}
@media (min-width:48rem){main{padding-top:3rem}h1{font-size:1.85rem}.q{padding:1.25rem 1.5rem}button{width:auto;padding:.85rem 2.5rem}}
`;

const cssHash = createHash('sha256').update(SURVEY_PAGE_CSS).digest('base64');

/** No script at all, this one style, forms only to this origin, never framed. */
export const SURVEY_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${cssHash}'`,
  "img-src 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
