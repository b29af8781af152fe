import { errors, pageQueryOf, type PageRule } from '@feedback/kit-core';
import { isUuid } from './ids.js';
import type { Customer } from './customer.js';
import type { SurveyDeps } from './ports.js';
import type { ListedResponse, ResponseCustomer, SurveyResponse } from './response.js';
import { selectResponses, type ResponseFilterInput } from './response-filters.js';

// A size outside 1-200 is refused naming page_size, as the public list's schema does.
const RESPONSES_PAGE: PageRule = { list: 'responses', default: 50, max: 200, strict: true };

/** Newest first, ties broken by id: the order ListResponses pages through. */
export const responseSortKey = (r: Pick<SurveyResponse, 'answeredAt' | 'id'>) => `${r.answeredAt.toISOString()}|${r.id}`;

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
  // The page before the filters: a bad page_size or page_token is 400 whatever the filters find.
  const page = pageQueryOf(q, RESPONSES_PAGE);
  const selection = await selectResponses(deps, {
    accountId: q.accountId,
    flowId: q.flowId,
    channelId: q.channelId ?? '',
    customerExternalId: q.customerExternalId ?? '',
    since: q.since ?? '',
    until: q.until ?? '',
    sharingId: q.sharingId ?? '',
  });
  const { filter } = selection;
  if (!filter) return { responses: [] as ListedResponse[], nextPageToken: '' };
  const { items, nextPageToken } = await deps.responses.list(filter, page);
  return { responses: await withCustomers(deps, q.accountId, items), nextPageToken };
}

/** One response of the account; unknown, malformed and foreign ids alike are NOT_FOUND. */
export async function getResponse(deps: Pick<SurveyDeps, 'responses' | 'customers'>, accountId: string, responseId: string) {
  const id = responseId.toLowerCase();
  const response = isUuid(id) ? await deps.responses.findById(accountId, id) : null;
  if (!response) throw errors.notFound('response_id', responseId);
  return (await withCustomers(deps, accountId, [response]))[0]!;
}
