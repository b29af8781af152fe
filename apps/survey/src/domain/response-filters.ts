import { errors } from '@feedback/kit-core';
import type { Flow } from './flow.js';
import { isUuid } from './ids.js';
import type { ResponseFilter, SurveyDeps } from './ports.js';

/** The filters of ListResponses and GetNpsSummary as the caller gave them ('' = not given). */
export interface ResponseFilterInput {
  accountId: string;
  flowId: string;
  channelId: string;
  customerExternalId: string;
  since: string;
  until: string;
  /** '' or absent: every sharing. */
  sharingId?: string;
}

const MAX_EXTERNAL_ID = 200;
// A calendar date, or a date and time with seconds optional, fractions up to nanoseconds and an
// offset (Z, +03:00, +0300): what integrators' clients write. A time without an offset is refused:
// it would mean a different instant in every time zone.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** An instant of since/until, or why not. A date alone is its midnight UTC. */
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

export interface CheckedFilters {
  flowId?: string;
  channelId?: string;
  customerExternalId?: string;
  since?: Date;
  until?: Date;
  sharingId?: string;
}

/**
 * The filters' own rules, every problem at once under its field: channel_id a UUID, since and
 * until instants with since before until, an external id of at most 200 characters. A malformed
 * flow_id stays NOT_FOUND, as ListResponses has always answered it.
 */
export function checkFilters(q: Omit<ResponseFilterInput, 'accountId'>): CheckedFilters {
  const problems: Record<string, string> = {};
  const out: CheckedFilters = {};
  if (q.flowId) out.flowId = q.flowId.toLowerCase();
  if (q.channelId) {
    if (isUuid(q.channelId)) out.channelId = q.channelId.toLowerCase();
    else problems.channel_id = 'must be a UUID';
  }
  if (q.sharingId) {
    if (isUuid(q.sharingId)) out.sharingId = q.sharingId.toLowerCase();
    else problems.sharing_id = 'must be a UUID';
  }
  if (q.customerExternalId) {
    if (q.customerExternalId.length > MAX_EXTERNAL_ID) problems.customer_external_id = `must be at most ${MAX_EXTERNAL_ID} characters`;
    else out.customerExternalId = q.customerExternalId;
  }
  for (const field of ['since', 'until'] as const) {
    if (!q[field]) continue;
    const at = parseInstant(q[field]);
    if (typeof at === 'string') problems[field] = at;
    else out[field] = at;
  }
  if (out.since && out.until && out.since.getTime() > out.until.getTime()) problems.since = 'must not be after until';
  if (Object.keys(problems).length > 0) throw errors.invalid(problems);
  return out;
}

/** What the filters select (null when nothing can match), with the flow when one was named. */
export interface Selection {
  filter: ResponseFilter | null;
  flow?: Flow;
}

/**
 * Checks the filters and resolves them against the account: a foreign or unknown flow or channel
 * is NOT_FOUND; an unknown customer, or a channel of another flow than flow_id, selects nothing. A
 * sharing is messaging's: the survey service knows it only from the answers to its links, so an
 * unknown one (or another account's) selects nothing.
 * since/until become bounds of the sort key (answered_at first), so a page stays one index range.
 */
export async function selectResponses(
  deps: Pick<SurveyDeps, 'flows' | 'channels' | 'customers'>,
  q: ResponseFilterInput,
  opts: { flowRequired?: boolean } = {},
): Promise<Selection> {
  const f = checkFilters(q);
  let flow: Flow | undefined;
  if (f.flowId || opts.flowRequired) {
    flow = (f.flowId && isUuid(f.flowId) && (await deps.flows.get(q.accountId, f.flowId))) || undefined;
    if (!flow) throw errors.notFound('flow_id', q.flowId);
  }
  const channel = f.channelId ? await deps.channels.findById(q.accountId, f.channelId) : undefined;
  if (f.channelId && !channel) throw errors.notFound('channel_id', q.channelId);
  const customer = f.customerExternalId ? await deps.customers.findBy(q.accountId, 'externalId', f.customerExternalId) : undefined;
  const flowOnly = flow ? { flow } : {};
  if ((f.customerExternalId && !customer) || (channel && flow && channel.flowId !== flow.id)) return { filter: null, ...flowOnly };
  const filter: ResponseFilter = {
    accountId: q.accountId,
    // A channel has one flow: its index alone serves a query naming both.
    ...(flow && !channel ? { flowId: flow.id } : {}),
    ...(channel ? { channelId: channel.id } : {}),
    ...(customer ? { customerId: customer.id } : {}),
    ...(f.sharingId ? { sharingId: f.sharingId } : {}),
    ...(f.since ? { from: f.since.toISOString() } : {}),
    ...(f.until ? { before: f.until.toISOString() } : {}),
  };
  return { filter, ...flowOnly };
}
