import { AppError } from '@feedback/kit-core';
import { lookupValue, RESOLUTION_ORDER, type Customer, type CustomerChanges, type IdentifierKind, type Identifiers } from './customer.js';
import type { SurveyDeps } from './ports.js';

export interface CustomerFacts {
  ids: Identifiers;
  name?: string;
  schema: Record<string, string>;
  attributes: Record<string, string>;
}

type Deps = Pick<SurveyDeps, 'customers' | 'newId' | 'clock'>;
type Owners = Map<IdentifierKind, Customer | null>;

/** A write that lost a race on a unique identifier starts over; past this, something is wrong. */
const MAX_ATTEMPTS = 5;

/**
 * external_id wins; else the e-mail's, else the phone's customer, unless that one carries
 * another external_id: two different external ids are two people, whatever else they share.
 */
function pickMatch(owners: Owners, ids: Identifiers): Customer | null {
  const byExternalId = owners.get('externalId');
  if (byExternalId) return byExternalId;
  for (const kind of ['email', 'phone'] as const) {
    const candidate = owners.get(kind);
    if (candidate && (!ids.externalId || !candidate.externalId)) return candidate;
  }
  return null;
}

/** Identifiers that nobody else holds: a customer never takes another's e-mail or phone. */
function freeIdentifiers(owners: Owners, ids: Identifiers, self: Customer | null): Identifiers {
  const free: Identifiers = {};
  for (const kind of RESOLUTION_ORDER) {
    const owner = owners.get(kind);
    if (ids[kind] && (!owner || owner.id === self?.id)) free[kind] = ids[kind];
  }
  // The CRM's own id of a customer never changes once set.
  if (self?.externalId) delete free.externalId;
  return free;
}

async function owners(deps: Deps, accountId: string, ids: Identifiers): Promise<Owners> {
  const kinds = RESOLUTION_ORDER.filter((k) => ids[k]);
  const found = await Promise.all(kinds.map((k) => deps.customers.findBy(accountId, k, lookupValue(k, ids[k]!))));
  return new Map(kinds.map((k, i) => [k, found[i] ?? null]));
}

/** The customer a resolution creates when nobody holds its identifiers (`facts.ids`: the free ones). */
export function newCustomer(deps: Pick<Deps, 'newId'>, accountId: string, facts: CustomerFacts, now: Date): Customer {
  return {
    id: deps.newId(),
    accountId,
    ...facts.ids,
    ...(facts.name ? { name: facts.name } : {}),
    schema: facts.schema,
    attributes: facts.attributes,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Finds the customer by external_id, then e-mail, then phone, and updates it with what the
 * channel brought; creates one when none matches. Unique indexes decide races: a write that
 * collides with a concurrent one starts over and then finds the winner's customer, so
 * concurrent resolutions of one person yield one customer.
 */
export async function resolveCustomer(
  deps: Deps,
  accountId: string,
  facts: CustomerFacts,
): Promise<{ customer: Customer; created: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const found = await owners(deps, accountId, facts.ids);
    const match = pickMatch(found, facts.ids);
    const ids = freeIdentifiers(found, facts.ids, match);
    const now = deps.clock.now();
    if (!match) {
      const customer = newCustomer(deps, accountId, { ...facts, ids }, now);
      if ((await deps.customers.insert(customer)) === 'created') return { customer, created: true };
      continue;
    }
    const changes: CustomerChanges = { ...ids, schema: facts.schema, attributes: facts.attributes, updatedAt: now };
    if (facts.name) changes.name = facts.name;
    const updated = await deps.customers.update(accountId, match.id, changes);
    if (updated && updated !== 'duplicate') return { customer: updated, created: false };
  }
  throw new AppError('unavailable', 'The customer kept changing concurrently; try again');
}
