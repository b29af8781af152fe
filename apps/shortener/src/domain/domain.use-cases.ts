import { errors } from '@feedback/kit-core';
import { normalizeDomainName } from './domain-name.js';
import { ownDomainName, type CustomerDomain } from './link.js';
import type { ShortenerDeps } from './ports.js';

type Deps = Pick<ShortenerDeps, 'domains' | 'clock' | 'settings'>;

function requireAccountId(accountId: string): string {
  if (!accountId) throw errors.invalid({ account_id: 'is required' });
  return accountId;
}

/** A domain belongs to one account only: whoever configured it first. */
export async function addDomain(deps: Deps, accountId: string, input: string): Promise<CustomerDomain> {
  requireAccountId(accountId);
  const name = normalizeDomainName(input);
  if (name === ownDomainName(deps.settings)) {
    throw errors.invalid({ domain: "is the service's own short domain" });
  }
  const domain = { name, accountId, createdAt: deps.clock.now() };
  if (!(await deps.domains.insertIfNew(domain))) throw errors.conflict({ domain: name });
  return domain;
}

/** Oldest first; the first is the account's default for links made without a domain. */
export async function listDomains(deps: Pick<Deps, 'domains'>, accountId: string): Promise<CustomerDomain[]> {
  return deps.domains.listByAccount(requireAccountId(accountId));
}

export async function removeDomain(deps: Pick<Deps, 'domains'>, accountId: string, input: string): Promise<void> {
  const name = normalizeDomainName(input);
  if (!(await deps.domains.remove(requireAccountId(accountId), name))) throw errors.notFound('domain', name);
}
