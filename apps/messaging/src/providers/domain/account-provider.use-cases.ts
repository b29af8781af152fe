import { errors } from '@feedback/kit-core';
import { maskSettings, type AccountProvider } from './account-provider.js';
import type { ProviderDeps } from '../ports.js';

type Deps = Pick<ProviderDeps, 'accountProviders' | 'providerSettings' | 'providerCache' | 'clock'>;

/**
 * Sets the account's own SMS provider (replacing one it had): its SMS go through it from now on
 * in this process, and in the others once their cache of it expires. Answers it masked; the
 * settings themselves are only ever read again by the dispatcher.
 */
export async function putAccountProvider(deps: Deps, cmd: { accountId: string; configJson: string }): Promise<AccountProvider> {
  const accountId = requireAccountId(cmd.accountId);
  const settings = deps.providerSettings.parse(cmd.configJson);
  const stored = await deps.accountProviders.put({ accountId, settings, at: deps.clock.now() });
  deps.providerCache.forget(accountId);
  return shown(stored);
}

/** The account's own provider, masked; NOT_FOUND (sms_provider) when it has none and uses the deployment's. */
export async function getAccountProvider(deps: Pick<Deps, 'accountProviders'>, q: { accountId: string }): Promise<AccountProvider> {
  const accountId = requireAccountId(q.accountId);
  const found = await deps.accountProviders.find(accountId);
  if (!found) throw errors.notFound('sms_provider', accountId);
  return shown(found);
}

/** Back to the deployment's provider; NOT_FOUND (sms_provider) when the account had none. */
export async function deleteAccountProvider(deps: Deps, cmd: { accountId: string }): Promise<void> {
  const accountId = requireAccountId(cmd.accountId);
  const deleted = await deps.accountProviders.delete(accountId);
  deps.providerCache.forget(accountId);
  if (!deleted) throw errors.notFound('sms_provider', accountId);
}

function requireAccountId(accountId: string): string {
  if (!accountId) throw errors.invalid({ account_id: 'is required' });
  return accountId;
}

const shown = (p: AccountProvider): AccountProvider => ({ ...p, settings: maskSettings(p.settings) });
