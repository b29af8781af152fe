import { errors, pageQueryOf, type Page, type PageRequest, type PageRule } from '@feedback/kit-core';
import { TOKEN_KINDS, type Account, type ApiToken, type Node, type TokenKind } from './account.js';
import type { AccountDirectory, AccountsDeps } from './ports.js';
import { hashToken, newTokenSecret } from './token-secret.js';

function requireName(name: string | undefined, field = 'name'): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '' || trimmed.length > 200) throw errors.invalid({ [field]: 'must be 1-200 characters' });
  return trimmed;
}

export async function createAccount(deps: AccountsDeps, name: string): Promise<Account> {
  const account = { id: deps.newId(), name: requireName(name), createdAt: deps.clock.now() };
  await deps.accounts.insert(account);
  return account;
}

export const ACCOUNTS_PAGE: PageRule = { list: 'accounts', default: 50, max: 200 };

/** The deployment's accounts, newest first (a bad page token is 400). */
export async function listAccounts(directory: AccountDirectory, req: Partial<PageRequest>): Promise<Page<Account>> {
  return directory.list(pageQueryOf(req, ACCOUNTS_PAGE));
}

export async function requireAccount(deps: Pick<AccountsDeps, 'accounts'>, accountId: string): Promise<Account> {
  const account = await deps.accounts.findById(accountId);
  if (!account) throw errors.notFound('account_id', accountId);
  return account;
}

/** Issues a token; the secret is returned here once and only its hash is kept. */
export async function issueToken(
  deps: AccountsDeps,
  accountId: string,
  kind: TokenKind,
  name: string,
): Promise<{ token: ApiToken; secret: string }> {
  await requireAccount(deps, accountId);
  if (!TOKEN_KINDS.includes(kind)) throw errors.invalid({ kind: `must be one of ${TOKEN_KINDS.join(', ')}` });
  const secret = newTokenSecret(kind);
  const token: ApiToken = {
    id: deps.newId(),
    accountId,
    kind,
    name: requireName(name),
    hash: hashToken(secret),
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  await deps.tokens.insert(token);
  return { token, secret };
}

export async function revokeToken(deps: AccountsDeps, accountId: string, tokenId: string): Promise<ApiToken> {
  await requireAccount(deps, accountId);
  const revoked = await deps.tokens.revoke(accountId, tokenId, deps.clock.now());
  if (!revoked) throw errors.notFound('token_id', tokenId);
  return revoked;
}

export async function createNode(deps: AccountsDeps, accountId: string, name: string): Promise<Node> {
  await requireAccount(deps, accountId);
  const node = { id: deps.newId(), accountId, name: requireName(name), createdAt: deps.clock.now() };
  await deps.nodes.insert(node);
  return node;
}
