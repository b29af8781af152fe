import { errors } from '@feedback/kit-core';
import type { Viewer } from '../accounts/domain/people.js';
import type { AccountRepository } from '../accounts/domain/ports.js';

export type AccountScope = { accountId: string; accountName: string } | null;

/**
 * The account a page shows: always the viewer's own for an account's people (an `account`
 * parameter is ignored, so no link reaches another account's data); an operator's chosen one
 * (null: not chosen yet; an unknown id is 404).
 */
export async function accountScope(
  accounts: Pick<AccountRepository, 'findById'>,
  viewer: Viewer,
  requested: string | undefined,
): Promise<AccountScope> {
  if (viewer.accountId !== null) return { accountId: viewer.accountId, accountName: '' };
  const id = requested?.trim();
  if (!id) return null;
  const account = await accounts.findById(id);
  if (!account) throw errors.notFound('account', id);
  return { accountId: account.id, accountName: account.name };
}
