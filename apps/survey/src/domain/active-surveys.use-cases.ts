import { errors } from '@feedback/kit-core';
import { surveyUrl } from './activation.use-cases.js';
import { lookupValue, RESOLUTION_ORDER } from './customer.js';
import { parseIdentifiers, requireSomeIdentifier } from './customer-input.js';
import { isUuid } from './ids.js';
import type { SurveyLink } from './link.js';
import type { SurveyDeps } from './ports.js';
import { sensitiveEquals } from './sensitive-fields.js';

export interface ActiveSurveyQuery {
  accountId: string;
  nodeId: string;
  phoneNumber: string;
  email: string;
  externalId: string;
  /** Must equal the customer's schema TCKN when given (stored as its keyed hash). */
  tckn: string;
  /** Only surveys of this channel when given. */
  responseChannelId: string;
}

interface ActiveSurvey {
  link: SurveyLink;
  url: string;
}

/**
 * The active surveys of the one customer every given identifier points at (AND): each
 * identifier is one unique-index lookup, and they must all find the same customer. Then one
 * index lookup of that customer's links on the node.
 */
export async function listActiveSurveys(
  deps: Pick<SurveyDeps, 'customers' | 'links' | 'clock' | 'config' | 'personalData'>,
  q: ActiveSurveyQuery,
): Promise<ActiveSurvey[]> {
  const ids = parseIdentifiers(q, deps.config.defaultPhoneRegion);
  requireSomeIdentifier(ids);
  const channelId = q.responseChannelId.trim();
  if (channelId && !isUuid(channelId)) throw errors.invalid({ response_channel_id: 'must be a UUID' });
  if (q.nodeId.trim() === '') throw errors.invalid({ node_id: 'is required' });

  const kinds = RESOLUTION_ORDER.filter((k) => ids[k]);
  const found = await Promise.all(kinds.map((k) => deps.customers.findBy(q.accountId, k, lookupValue(k, ids[k]!))));
  const customer = found[0];
  if (!customer || found.some((c) => c?.id !== customer.id)) return [];
  const tckn = q.tckn.trim();
  if (tckn && !sensitiveEquals(customer.schema.TCKN, tckn, 'TCKN', deps.personalData)) return [];

  const links = await deps.links.findActive({
    accountId: q.accountId,
    customerId: customer.id,
    nodeId: q.nodeId,
    ...(channelId ? { channelId: channelId.toLowerCase() } : {}),
    now: deps.clock.now(),
  });
  return links
    .sort((a, b) => b.activatedAt.getTime() - a.activatedAt.getTime())
    .map((link) => ({ link, url: surveyUrl(deps.config, link.token) }));
}
