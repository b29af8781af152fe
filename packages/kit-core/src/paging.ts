import { createHash } from 'node:crypto';
import { errors } from './errors.js';

/**
 * The one way a list is paged (docs/decisions.md "One way to page"): newest first by a date, ties
 * by id, a page at a time. A page token is the last item's (date, id) key, opaque to clients.
 */

/** What a caller asks of a list: 0 is the list's default size, '' the first page. */
export interface PageRequest {
  pageSize: number;
  pageToken: string;
}

/** A page of a list: `nextPageToken` is '' on the last page (as proto3 sends an absent string). */
export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

/** Where a page starts: after the item of this date and id, in (date desc, id desc) order. */
export interface PageKey {
  at: Date;
  id: string;
}

/** A list's paging rules. `list` names it in its tokens, so one list's token is refused by another. */
export interface PageRule {
  list: string;
  default: number;
  max: number;
  /** A size outside 1-max is refused naming page_size; otherwise it is clamped into range. */
  strict?: boolean;
}

/** A validated page request: its size and the key it starts after (null: the first page). */
export interface PageQuery {
  list: string;
  size: number;
  after: PageKey | null;
}

const VERSION = 1;
/** Ids are short (uuids, composite keys): a longer one is no key this code made, and tokens stay under the API's 500 characters. */
const MAX_ID = 200;

/** A check over the token's content, so that a token edited by hand is refused, not misread. */
const checkOf = (body: string) => createHash('sha256').update(body).digest('base64url').slice(0, 8);

export function encodePageToken(list: string, key: PageKey): string {
  const body = JSON.stringify({ v: VERSION, l: list, t: key.at.getTime(), i: key.id });
  return Buffer.from(JSON.stringify([body, checkOf(body)])).toString('base64url');
}

/** The key of a token `list` answered; INVALID_ARGUMENT naming page_token for anything else. */
export function decodePageToken(list: string, token: string): PageKey {
  const key = readToken(list, token);
  if (!key) throw errors.invalid({ page_token: 'is not a page token of this list' });
  return key;
}

function readToken(list: string, token: string): PageKey | null {
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(token)) return null;
  try {
    const outer = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(outer) || outer.length !== 2) return null;
    const [body, check] = outer as unknown[];
    if (typeof body !== 'string' || check !== checkOf(body)) return null;
    const { v, l, t, i } = JSON.parse(body) as Record<string, unknown>;
    if (v !== VERSION || l !== list || !Number.isSafeInteger(t) || typeof i !== 'string') return null;
    if (i.length === 0 || i.length > MAX_ID) return null;
    return { at: new Date(t as number), id: i };
  } catch {
    return null;
  }
}

/** The page size a request gets under `rule`: 0 (unset) is the default. */
export function pageSizeOf(size: number | undefined, rule: PageRule): number {
  if (!size) return rule.default;
  if (Number.isInteger(size) && size >= 1 && size <= rule.max) return size;
  if (rule.strict) throw errors.invalid({ page_size: `must be 1-${rule.max}` });
  return size < 1 ? rule.default : rule.max;
}

/** A request checked against its list's rule: the size, then the token. */
export function pageQueryOf(req: Partial<PageRequest>, rule: PageRule): PageQuery {
  const size = pageSizeOf(req.pageSize, rule);
  return { list: rule.list, size, after: req.pageToken ? decodePageToken(rule.list, req.pageToken) : null };
}

/** Orders keys newest first, ties by id descending: the order every list pages through. */
export const compareNewestFirst = (a: PageKey, b: PageKey): number =>
  b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * A page of items already in memory (the in-memory fakes of the ports): the same order, size and
 * tokens as a store's keyset page.
 */
export function pageOf<T>(items: readonly T[], q: PageQuery, keyOf: (item: T) => PageKey): Page<T> {
  const sorted = [...items].sort((a, b) => compareNewestFirst(keyOf(a), keyOf(b)));
  const after = q.after;
  const rest = after ? sorted.filter((item) => compareNewestFirst(after, keyOf(item)) < 0) : sorted;
  const page = rest.slice(0, q.size);
  const last = page.at(-1);
  return { items: page, nextPageToken: rest.length > q.size && last ? encodePageToken(q.list, keyOf(last)) : '' };
}
