import { errors, pageQueryOf, type Page, type PageRequest, type PageRule } from '@feedback/kit-core';
import type { IntakeDeps } from '../ports.js';
import { SHARING_STATES, sharingState, type SharingState, type SmsSharing } from '../../shared/domain/sharing.js';

type Deps = Pick<IntakeDeps, 'sharings' | 'campaigns' | 'clock'>;

/** ListSmsSharings' pages: the size of the other lists of the API. */
export const SHARINGS_PAGE: PageRule = { list: 'sms_sharings', default: 50, max: 200 };

/** The filters as the caller gave them ('' = not given). */
export interface SharingListRequest extends Partial<PageRequest> {
  accountId: string;
  campaignId: string;
  status: string;
  createdAfter: string;
  createdBefore: string;
}

/** A sharing as a list shows it: what it stores, and where it stands as a whole. */
export interface ListedSharing {
  sharing: SmsSharing;
  status: SharingState;
}

// A calendar date, or a date and time with an offset (a time without one would mean a different
// instant in every time zone): what the response list's since/until take too.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** An instant of created_after / created_before, or why not. A date alone is its midnight UTC. */
export function parseInstant(text: string): Date | string {
  const m = INSTANT.exec(text);
  if (!m) return 'must be an ISO 8601 date (2026-11-22) or date-time with an offset (2026-11-22T09:30:00+03:00)';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.parse takes 2026-02-30 as March 2nd; the calendar does not.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return 'is not a calendar date';
  const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999) return 'is out of range';
  return at;
}

/**
 * The account's sharings, newest first, a page at a time: every problem of the filters at once
 * under its field (INVALID_ARGUMENT), then a campaign that is not the account's is NOT_FOUND like
 * an unknown one. Each entry is what the sharing stores (counts of phones, dates) and its status;
 * nothing is counted over its recipients or messages, so a page costs one index range whatever
 * the sharings' sizes (GetSmsSharing counts and has the funnel).
 */
export async function listSharings(deps: Deps, q: SharingListRequest): Promise<Page<ListedSharing>> {
  const problems: Record<string, string> = {};
  const status = q.status ? (SHARING_STATES.find((s) => s === q.status) ?? null) : undefined;
  if (status === null) problems.status = `must be one of ${SHARING_STATES.join(', ')}`;
  const range: { createdAfter?: Date; createdBefore?: Date } = {};
  for (const [field, key] of [
    ['created_after', 'createdAfter'],
    ['created_before', 'createdBefore'],
  ] as const) {
    const text = q[key];
    if (!text) continue;
    const at = parseInstant(text);
    if (typeof at === 'string') problems[field] = at;
    else range[key] = at;
  }
  if (range.createdAfter && range.createdBefore && range.createdAfter >= range.createdBefore) {
    problems.created_before = 'must be after created_after';
  }
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  const page = pageQueryOf(q, SHARINGS_PAGE);
  if (q.campaignId && !(await deps.campaigns.findById(q.accountId, q.campaignId))) throw errors.notFound('campaign_id', q.campaignId);

  const now = deps.clock.now();
  const found = await deps.sharings.list({
    accountId: q.accountId,
    ...(q.campaignId && { campaignId: q.campaignId }),
    ...range,
    ...(status && { accept: (s: SmsSharing) => sharingState(s, now) === status }),
    page,
  });
  return { items: found.items.map((sharing) => ({ sharing, status: sharingState(sharing, now) })), nextPageToken: found.nextPageToken };
}
