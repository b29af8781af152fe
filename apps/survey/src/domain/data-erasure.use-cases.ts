import { errors } from '@feedback/kit-core';
import { surveyUrl } from './activation.use-cases.js';
import { lookupValue, RESOLUTION_ORDER, type Customer } from './customer.js';
import { parseIdentifiers, requireSomeIdentifier } from './customer-input.js';
import {
  everyServiceReported,
  SERVICE_NAME,
  type DataErasure,
  type ErasureCounts,
  type ErasureDeps,
  type ErasureRequest,
} from './data-erasure.js';
import { isUuid } from './ids.js';
import type { SurveyLink } from './link.js';

/** The purposes the identifiers are hashed under (PersonalDataProtector.hash). */
const HASH_PURPOSE = { phone: 'phone', email: 'email', externalId: 'external_id' } as const;

const unique = (values: Iterable<string | undefined>) => [...new Set([...values].filter((v): v is string => !!v))];

/**
 * Resolves the person to the account's customers matching any given identifier (a person known
 * by phone to one channel and by e-mail to another is two customers), gathers every identifier
 * and survey link they have, stores the request (hashes only, plus the event sealed until it is
 * published) and publishes data.erasure.requested before answering. A failed publish answers
 * UNAVAILABLE; the stored request is published again by the next GetDataErasure.
 */
export async function requestDataErasure(
  deps: ErasureDeps,
  input: { accountId: string; phoneNumber: string; email: string; externalId: string },
): Promise<DataErasure> {
  const ids = parseIdentifiers(input, deps.config.defaultPhoneRegion, '');
  requireSomeIdentifier(ids, '');
  const customers = await matchingCustomers(deps, input.accountId, {
    phones: ids.phone ? [ids.phone] : [],
    emails: ids.email ? [lookupValue('email', ids.email)] : [],
    externalIds: ids.externalId ? [ids.externalId] : [],
  });
  const phones = unique([ids.phone, ...customers.map((c) => c.phone)]);
  const links = await linksOfPerson(deps, input.accountId, customers, phones);
  const now = deps.clock.now();
  const request: ErasureRequest = {
    erasureId: deps.newId(),
    accountId: input.accountId,
    phones,
    emails: unique([ids.email, ...customers.map((c) => c.email)].map((e) => e && lookupValue('email', e))),
    externalIds: unique([ids.externalId, ...customers.map((c) => c.externalId)]),
    customerIds: customers.map((c) => c.id),
    surveyLinkIds: links.map((l) => l.id),
    surveyLinkUrls: links.map((l) => surveyUrl(deps.config, l.token)),
    requestedAt: now,
  };
  const erasure: DataErasure = {
    id: request.erasureId,
    accountId: input.accountId,
    status: 'pending',
    requestedAt: now,
    completedAt: null,
    subjectHashes: (['phone', 'email', 'externalId'] as const).flatMap((k) => (ids[k] ? [deps.hash(ids[k], HASH_PURPOSE[k])] : [])),
    expectedServices: [...deps.config.expectedServices],
    progress: {},
    unpublished: request,
  };
  await deps.erasures.insert(erasure);
  await publish(deps, erasure.id, request);
  const { unpublished: _, ...published } = erasure;
  return published;
}

/** NOT_FOUND (data_erasure_id) for unknown, malformed and other accounts' ids alike. */
export async function getDataErasure(deps: ErasureDeps, accountId: string, id: string): Promise<DataErasure> {
  const erasure = isUuid(id) ? await deps.erasures.findById(accountId, id) : null;
  if (!erasure) throw errors.notFound('data_erasure_id', id);
  if (erasure.unpublished) await publish(deps, erasure.id, erasure.unpublished);
  const { unpublished: _, ...rest } = erasure;
  return rest;
}

async function publish(deps: ErasureDeps, id: string, request: ErasureRequest): Promise<void> {
  try {
    await deps.events.requested(request);
  } catch (err) {
    deps.logger.warn({ err, erasure_id: id }, 'data.erasure.requested not published; the next read of the request retries');
    throw errors.unavailable('the erasure request is stored but could not be handed to the services yet; read it again to retry');
  }
  await deps.erasures.markPublished(id);
}

/**
 * A service's report (data.erasure.progress): the first report of each service is kept (a
 * redelivered or repeated one, which finds nothing left to erase, does not overwrite its
 * counts), and the request completes once every expected service has reported. Unknown
 * requests and malformed service names are ignored: nothing to record them on.
 */
export async function recordErasureProgress(
  deps: Pick<ErasureDeps, 'erasures' | 'clock' | 'logger'>,
  p: { erasureId: string; service: string; counts: ErasureCounts },
): Promise<void> {
  if (!SERVICE_NAME.test(p.service) || !isUuid(p.erasureId)) return;
  const erasure = await deps.erasures.recordProgress(p.erasureId, p.service, p.counts);
  if (!erasure) {
    deps.logger.warn({ erasure_id: p.erasureId, service: p.service }, 'progress of an unknown data erasure ignored');
    return;
  }
  if (erasure.status === 'pending' && everyServiceReported(erasure)) await deps.erasures.markCompleted(erasure.id, deps.clock.now());
}

/**
 * The survey service's own part: the person's customers (found again by every identifier, so a
 * customer created since the request goes too), their survey links and their responses. The
 * responses are deleted, not anonymised: a response's answers and built-in responses may
 * themselves be personal (free text, an order number), so only deletion is sure; NPS over the
 * remaining responses stays exact. Idempotent: a second run finds nothing and counts zero.
 */
export async function eraseSurveyData(
  deps: Pick<ErasureDeps, 'customers' | 'channels' | 'links' | 'personalData'>,
  r: ErasureRequest,
): Promise<Pick<ErasureCounts, 'customers' | 'responses'>> {
  const byIds = r.customerIds.length > 0 ? await deps.customers.findByIds(r.accountId, r.customerIds) : [];
  const byKeys = await matchingCustomers(deps, r.accountId, r);
  const customers = [...new Map([...byIds, ...byKeys].map((c) => [c.id, c])).values()];
  const customerIds = customers.map((c) => c.id);
  const links = await linksOfPerson(deps, r.accountId, customers, r.phones);
  const linkIds = unique([...r.surveyLinkIds, ...links.map((l) => l.id)]);
  // Responses before links before customers: a crash half-way leaves what finds the rest.
  const responses = await deps.personalData.deleteResponsesOf(r.accountId, customerIds, linkIds);
  await deps.personalData.deleteLinks(r.accountId, linkIds);
  const deleted = await deps.personalData.deleteCustomers(r.accountId, customerIds);
  return { customers: deleted, responses };
}

async function matchingCustomers(
  deps: Pick<ErasureDeps, 'customers'>,
  accountId: string,
  keys: Pick<ErasureRequest, 'phones' | 'emails' | 'externalIds'>,
): Promise<Customer[]> {
  const lookups = RESOLUTION_ORDER.flatMap((kind) =>
    (kind === 'phone' ? keys.phones : kind === 'email' ? keys.emails : keys.externalIds).map((v) => ({ kind, v })),
  );
  // Equality lookups on each identifier's index (indexes.ts: `$in` is slow on the local server).
  const found = await Promise.all(lookups.map(({ kind, v }) => deps.customers.findBy(accountId, kind, lookupValue(kind, v))));
  return [...new Map(found.filter((c): c is Customer => c !== null).map((c) => [c.id, c])).values()];
}

/** The customers' links, and links texted to the person's phones though resolved to another customer. */
async function linksOfPerson(
  deps: Pick<ErasureDeps, 'channels' | 'links' | 'personalData'>,
  accountId: string,
  customers: Customer[],
  phones: string[],
): Promise<SurveyLink[]> {
  const own =
    customers.length > 0
      ? await deps.personalData.linksOfCustomers(
          accountId,
          customers.map((c) => c.id),
        )
      : [];
  const texted =
    phones.length > 0
      ? (await Promise.all((await deps.channels.list(accountId)).map((ch) => deps.links.findByPhones(accountId, ch.id, phones)))).flat()
      : [];
  return [...new Map([...own, ...texted].map((l) => [l.id, l])).values()];
}
