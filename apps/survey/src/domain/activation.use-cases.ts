import { errors, sensitiveNames } from '@feedback/kit-core';
import type { Channel } from './channel.js';
import { getChannel } from './channel.use-cases.js';
import type { Customer } from './customer.js';
import { checkAttributes, CUSTOMER_LIMITS, parseIdentifiers, requireSomeIdentifier, type CustomerInput } from './customer-input.js';
import { resolveCustomer, type CustomerFacts } from './customer-resolution.js';
import { DAY_MS, type SendContext, type SurveyLink } from './link.js';
import type { LinkActivation, SurveyConfig, SurveyDeps } from './ports.js';
import { hashSensitive } from './sensitive-fields.js';

export interface ActivationRequest {
  accountId: string;
  channelId: string;
  customer: CustomerInput;
  customAttributes: Record<string, string>;
  builtInResponses: Record<string, string>;
  /** Where the link is sent from (an SMS sharing); '' or absent: not given. */
  campaignId?: string;
  sharingId?: string;
  messageId?: string;
}

export interface Activation {
  customer: Customer;
  created: boolean;
  link: SurveyLink;
  url: string;
}

export const surveyUrl = (config: Pick<SurveyConfig, 'publicBaseUrl'>, token: string) =>
  `${config.publicBaseUrl.replace(/\/+$/, '')}/s/${token}`;

/**
 * An SMS sharing's custom attributes may carry the customer's own fields: name, email, external_id
 * and the schema's fields (config.customerSchemaAttributes, e.g. TCKN, where the active survey
 * query looks). Explicit fields win. Every path that activates a link (SMS, CSV workflows,
 * personal links) passes through here, so each writes customers alike.
 */
function withAttributeFallbacks(c: CustomerInput, attrs: Record<string, string>, schemaNames: readonly string[]): CustomerInput {
  const fromAttrs: Record<string, string> = {};
  const schemaName = new Map(schemaNames.map((n) => [n.toLowerCase(), n]));
  for (const [k, v] of Object.entries(attrs)) {
    const name = schemaName.get(k.toLowerCase());
    if (name && v.trim()) fromAttrs[name] = v.trim();
  }
  return {
    ...c,
    name: c.name.trim() || attrs.name?.trim() || '',
    email: c.email.trim() || attrs.email?.trim() || '',
    externalId: c.externalId.trim() || attrs.external_id?.trim() || '',
    schema: { ...fromAttrs, ...c.schema },
  };
}

/** What an activation request asks for, checked: the customer's facts and the link's responses. */
export interface CheckedActivation {
  facts: CustomerFacts;
  builtInResponses: Record<string, string>;
  context: SendContext;
}

/** Ids of the sender's (messaging: UUIDs, a message id `<sharing id>.<phone>`); a bound keeps a stray one from bloating links. */
const MAX_CONTEXT_ID = 200;

/**
 * The link's send context: the ids given and the custom attributes but the sensitive ones, which
 * are never shown back (the customer keeps only their hashes); a response copies it.
 */
function sendContext(req: ActivationRequest, attributes: Record<string, string>, sensitive: ReadonlySet<string>): SendContext {
  const ids = { campaign_id: req.campaignId ?? '', sharing_id: req.sharingId ?? '', message_id: req.messageId ?? '' };
  const tooLong = Object.entries(ids).filter(([, v]) => v.length > MAX_CONTEXT_ID);
  if (tooLong.length > 0)
    throw errors.invalid(Object.fromEntries(tooLong.map(([k]) => [k, `must be at most ${MAX_CONTEXT_ID} characters`])));
  return {
    ...(ids.campaign_id ? { campaignId: ids.campaign_id } : {}),
    ...(ids.sharing_id ? { sharingId: ids.sharing_id } : {}),
    ...(ids.message_id ? { messageId: ids.message_id } : {}),
    customAttributes: Object.fromEntries(Object.entries(attributes).filter(([k]) => !sensitive.has(k.toLowerCase()))),
  };
}

/**
 * The request's own checks, before any lookup (INVALID_ARGUMENT naming the fields). Sensitive
 * schema fields and attributes (the TCKN) leave here as keyed hashes: only those are stored.
 */
export function checkActivation(deps: Pick<SurveyDeps, 'config' | 'personalData'>, req: ActivationRequest): CheckedActivation {
  const { config } = deps;
  const attributes = checkAttributes('custom_attributes', req.customAttributes);
  const input = withAttributeFallbacks(req.customer, attributes, config.customerSchemaAttributes);
  const ids = parseIdentifiers(input, config.defaultPhoneRegion);
  requireSomeIdentifier(ids);
  if (input.name.length > CUSTOMER_LIMITS.nameLength)
    throw errors.invalid({ 'customer.name': `must be at most ${CUSTOMER_LIMITS.nameLength} characters` });
  const schema = checkAttributes('customer.schema', input.schema);
  const builtInResponses = checkAttributes('built_in_responses', req.builtInResponses);
  const sensitive = sensitiveNames(config.sensitiveAttributes);
  return {
    facts: {
      ids,
      name: input.name || undefined,
      schema: hashSensitive(schema, sensitive, deps.personalData),
      attributes: hashSensitive(attributes, sensitive, deps.personalData),
    },
    builtInResponses,
    context: sendContext(req, attributes, sensitive),
  };
}

/** The link write of one activation: the channel's snapshot, the TTL from `now`, fresh id and token, the phone it is for. */
export function linkActivation(
  deps: Pick<SurveyDeps, 'newId' | 'newToken'>,
  channel: Channel,
  customerId: string,
  checked: CheckedActivation,
  now: Date,
): LinkActivation {
  const phone = checked.facts.ids.phone;
  return {
    accountId: channel.accountId,
    channelId: channel.id,
    customerId,
    nodeId: channel.nodeId,
    flowId: channel.flowId,
    nodeName: channel.nodeName,
    flowName: channel.flowName,
    channelName: channel.name,
    activatedAt: now,
    expiresAt: new Date(now.getTime() + channel.linkTtlDays * DAY_MS),
    builtInResponses: checked.builtInResponses,
    context: checked.context,
    ...(phone !== undefined ? { phone } : {}),
    newId: deps.newId(),
    newToken: deps.newToken(),
  };
}

/**
 * Resolves (or creates) the customer and creates or re-activates the customer's link of the
 * channel. Messaging calls it for every SMS; the API for personal links.
 */
export async function activateSurveyLink(deps: SurveyDeps, req: ActivationRequest): Promise<Activation> {
  const checked = checkActivation(deps, req);
  const channel = await getChannel(deps, req.accountId, req.channelId);
  const { customer, created } = await resolveCustomer(deps, req.accountId, checked.facts);
  const link = await deps.links.activate(linkActivation(deps, channel, customer.id, checked, deps.clock.now()));
  return { customer, created, link, url: surveyUrl(deps.config, link.token) };
}
