import { createHash } from 'node:crypto';

/**
 * The console's icon, served as a file beside the style sheet: without a `<link rel="icon">` every
 * page view makes the browser ask for /favicon.ico, a 404 in its console and in the gateway's logs.
 * SVG (a rounded square in the brand's blue), so one small file fits every size.
 */
export const CONSOLE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3a5bd9"/><path d="M9 21V11h14v7H14l-5 3z" fill="#fff"/></svg>`;

const hash = createHash('sha256').update(CONSOLE_ICON).digest('hex').slice(0, 16);

/** Where the icon is served; a changed icon gets a new name, so browsers may keep it for a year. */
export const CONSOLE_ICON_PATH = `/console/assets/icon-${hash}.svg`;
