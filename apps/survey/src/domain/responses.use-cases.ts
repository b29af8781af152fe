import { errors } from '@feedback/kit-core';
import { isUuid } from './ids.js';
import type { Customer } from './customer.js';
import type { SurveyDeps } from './ports.js';
import type { ListedResponse, ResponseCustomer, SurveyResponse } from './response.js';
import { selectResponses, type ResponseFilterInput } from './response-filters.js';

const PAGE_SIZE = { default: 50, max: 200 };

/** Newest first, ties broken by id: the order ListResponses pages through. */
export const responseSortKey = (r: Pick<SurveyResponse, 'answeredAt' | 'id'>) => `${r.answeredAt.toISOString()}|${r.id}`;

const encodeToken = (key: string) => Buffer.from(JSON.stringify({ k: key })).toString('base64url');

function decodeToken(token: string): string {
  try {
    const { k } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof k === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z\|[0-9a-f-]{36}$/.test(k)) return k;
  } catch {
    // falls through to the error below
  }
  throw errors.invalid({ page_token: 'is not a page token of this list' });
}

interface ResponseListQuery extends Partial<Omit<ResponseFilterInput, 'accountId' | 'flowId'>> {
  accountId: string;
  flowId: string;
  pageSize: number;
  pageToken: string;
}

const customerOf = (c: Customer): ResponseCustomer => ({
  ...(c.externalId !== undefined ? { externalId: c.externalId } : {}),
  ...(c.email !== undefined ? { email: c.email } : {}),
  ...(c.phone !== undefined ? { phone: c.phone } : {}),
});

/** Each response with its customer's identifiers, the customers read in one round trip. */
async function withCustomers(
  deps: Pick<SurveyDeps, 'customers'>,
  accountId: string,
  responses: SurveyResponse[],
): Promise<ListedResponse[]> {
  const ids = [...new Set(responses.map((r) => r.customerId))];
  const customers = new Map((ids.length > 0 ? await deps.customers.findByIds(accountId, ids) : []).map((c) => [c.id, customerOf(c)]));
  return responses.map((response) => {
    const customer = customers.get(response.customerId);
    return customer ? { response, customer } : { response };
  });
}

/**
 * A page of the account's responses the filters select (response-filters.ts). A foreign or
 * unknown flow_id or channel_id answers NOT_FOUND, like the flow or channel itself would.
 */
export async function listResponses(deps: Pick<SurveyDeps, 'responses' | 'flows' | 'channels' | 'customers'>, q: ResponseListQuery) {
  if (q.pageSize < 0 || q.pageSize > PAGE_SIZE.max) throw errors.invalid({ page_size: `must be 1-${PAGE_SIZE.max}` });
  const limit = q.pageSize || PAGE_SIZE.default;
  const after = q.pageToken ? decodeToken(q.pageToken) : undefined;
  const selection = await selectResponses(deps, {
    accountId: q.accountId,
    flowId: q.flowId,
    channelId: q.channelId ?? '',
    customerExternalId: q.customerExternalId ?? '',
    since: q.since ?? '',
    until: q.until ?? '',
  });
  const { filter } = selection;
  if (!filter) return { responses: [] as ListedResponse[], nextPageToken: '' };
  // The page token and `until` both bound the page from above: the lower of the two holds.
  const before = after && (!filter.before || after < filter.before) ? after : filter.before;
  const page = await deps.responses.list({ ...filter, ...(before ? { before } : {}), limit: limit + 1 });
  const responses = page.slice(0, limit);
  const last = responses.at(-1);
  return {
    responses: await withCustomers(deps, q.accountId, responses),
    nextPageToken: page.length > limit && last ? encodeToken(responseSortKey(last)) : '',
  };
}

/** One response of the account; unknown, malformed and foreign ids alike are NOT_FOUND. */
export async function getResponse(deps: Pick<SurveyDeps, 'responses' | 'customers'>, accountId: string, responseId: string) {
  const id = responseId.toLowerCase();
  const response = isUuid(id) ? await deps.responses.findById(accountId, id) : null;
  if (!response) throw errors.notFound('response_id', responseId);
  return (await withCustomers(deps, accountId, [response]))[0]!;
}
