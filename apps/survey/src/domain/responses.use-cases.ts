import { errors } from '@feedback/kit-core';
import { isUuid } from './ids.js';
import type { SurveyDeps } from './ports.js';
import type { SurveyResponse } from './response.js';

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

interface ResponseListQuery {
  accountId: string;
  flowId: string;
  pageSize: number;
  pageToken: string;
}

/** A foreign or unknown flow_id answers NOT_FOUND, like the flow itself would. */
export async function listResponses(deps: Pick<SurveyDeps, 'responses' | 'flows'>, q: ResponseListQuery) {
  if (q.pageSize < 0 || q.pageSize > PAGE_SIZE.max) throw errors.invalid({ page_size: `must be 1-${PAGE_SIZE.max}` });
  const limit = q.pageSize || PAGE_SIZE.default;
  const before = q.pageToken ? decodeToken(q.pageToken) : undefined;
  let flowId: string | undefined;
  if (q.flowId) {
    flowId = q.flowId.toLowerCase();
    if (!isUuid(flowId) || !(await deps.flows.get(q.accountId, flowId))) throw errors.notFound('flow_id', q.flowId);
  }
  const page = await deps.responses.list({
    accountId: q.accountId,
    ...(flowId ? { flowId } : {}),
    limit: limit + 1,
    ...(before ? { before } : {}),
  });
  const responses = page.slice(0, limit);
  const last = responses.at(-1);
  return { responses, nextPageToken: page.length > limit && last ? encodeToken(responseSortKey(last)) : '' };
}
