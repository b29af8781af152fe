/**
 * How deeply arrays and objects may nest in a JSON body. No request of docs/api.md needs more than
 * five levels; 64 leaves room and keeps every recursive walk after parsing (ajv, the lone-surrogate
 * check, protobuf encoding) far from the stack's end, which a body of 8,000 `[` used to reach.
 */
export const MAX_JSON_DEPTH = 64;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes as text, or undefined when they are not valid UTF-8. Node's Buffer#toString would put
 * U+FFFD in place of each bad byte and the replaced text would be stored as if it had been sent.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether arrays and objects in this JSON text nest deeper than `max`, read from the raw bytes
 * before any parser or walk recurses. Brackets inside strings do not count. The bytes looked at
 * are ASCII, which never occurs inside a multi-byte UTF-8 sequence, so no decoding is needed.
 * Malformed JSON is left to the parser: this only counts.
 */
export function jsonNestedDeeperThan(bytes: Uint8Array, max: number): boolean {
  // max + 1 opening brackets need at least that many bytes.
  if (bytes.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

const PERCENT_RUN = /(?:%[0-9a-f]{2})+/gi;

/**
 * Whether a `%XX` run of this URL-encoded text (a query string, a form body) decodes to bytes
 * that are not UTF-8 (`%FF`, a cut sequence, an encoded surrogate). URLSearchParams and fastify's
 * query parser would turn those into U+FFFD or leave them encoded, and the result would be taken
 * as the value sent. A `%` not followed by two hex digits is left as it is, as those parsers do.
 */
export function hasInvalidPercentUtf8(text: string): boolean {
  if (!text.includes('%')) return false;
  for (const [run] of text.matchAll(PERCENT_RUN)) {
    try {
      decodeURIComponent(run);
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * The name of the first parameter of a query string whose name or value is invalid percent-encoded
 * UTF-8 (`undefined`: none). The name is given only when it decodes itself; otherwise ''.
 */
export function invalidQueryParameter(query: string): string | undefined {
  if (!query.includes('%')) return undefined;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (!hasInvalidPercentUtf8(pair)) continue;
    return hasInvalidPercentUtf8(name) ? '' : safeDecode(name.replace(/\+/g, ' '));
  }
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
