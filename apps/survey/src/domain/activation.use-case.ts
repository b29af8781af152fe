import { errors } from '@feedback/kit-core';
import { getChannel } from './channel.use-cases.js';
import type { Customer } from './customer.js';
import { checkAttributes, CUSTOMER_LIMITS, parseIdentifiers, requireSomeIdentifier, type CustomerInput } from './customer-input.js';
import { resolveCustomer } from './customer-resolution.js';
import { DAY_MS, type SurveyLink } from './link.js';
import type { SurveyConfig, SurveyDeps } from './ports.js';

export interface ActivationRequest {
  accountId: string;
  channelId: string;
  customer: CustomerInput;
  customAttributes: Record<string, string>;
  builtInResponses: Record<string, string>;
}

export interface Activation {
  customer: Customer;
  created: boolean;
  link: SurveyLink;
  url: string;
}

export const surveyUrl = (config: Pick<SurveyConfig, 'publicBaseUrl'>, token: string) =>
  `${config.publicBaseUrl.replace(/\/+$/, '')}/s/${token}`;

/** An SMS sharing's custom attributes may carry the customer's own fields; explicit fields win. */
function withAttributeFallbacks(c: CustomerInput, attrs: Record<string, string>): CustomerInput {
  return {
    ...c,
    name: c.name.trim() || attrs.name?.trim() || '',
    email: c.email.trim() || attrs.email?.trim() || '',
    externalId: c.externalId.trim() || attrs.external_id?.trim() || '',
  };
}

/**
 * Resolves (or creates) the customer and creates or re-activates the customer's link of the
 * channel. Messaging calls it for every SMS; the API for personal links.
 */
export async function activateSurveyLink(deps: SurveyDeps, req: ActivationRequest): Promise<Activation> {
  const attributes = checkAttributes('custom_attributes', req.customAttributes);
  const input = withAttributeFallbacks(req.customer, attributes);
  const ids = parseIdentifiers(input, deps.config.defaultPhoneRegion);
  requireSomeIdentifier(ids);
  if (input.name.length > CUSTOMER_LIMITS.nameLength)
    throw errors.invalid({ 'customer.name': `must be at most ${CUSTOMER_LIMITS.nameLength} characters` });
  const schema = checkAttributes('customer.schema', input.schema);
  const builtInResponses = checkAttributes('built_in_responses', req.builtInResponses);
  const channel = await getChannel(deps, req.accountId, req.channelId);

  const { customer, created } = await resolveCustomer(deps, req.accountId, { ids, name: input.name || undefined, schema, attributes });
  const now = deps.clock.now();
  const link = await deps.links.activate({
    accountId: req.accountId,
    channelId: channel.id,
    customerId: customer.id,
    nodeId: channel.nodeId,
    flowId: channel.flowId,
    nodeName: channel.nodeName,
    flowName: channel.flowName,
    channelName: channel.name,
    activatedAt: now,
    expiresAt: new Date(now.getTime() + channel.linkTtlDays * DAY_MS),
    builtInResponses,
    newId: deps.newId(),
    newToken: deps.newToken(),
  });
  return { customer, created, link, url: surveyUrl(deps.config, link.token) };
}
