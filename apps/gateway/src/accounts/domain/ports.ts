import type { Clock } from '@feedback/kit-core';
import type { Account, ApiToken, Node } from './account.js';

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | null>;
}

export interface TokenRepository {
  insert(token: ApiToken): Promise<void>;
  findByHash(hash: string): Promise<ApiToken | null>;
  listByAccount(accountId: string): Promise<ApiToken[]>;
  /** Sets revokedAt if the token belongs to the account; answers whether it did. */
  revoke(accountId: string, tokenId: string, at: Date): Promise<ApiToken | null>;
}

export interface NodeRepository {
  insert(node: Node): Promise<void>;
  findById(accountId: string, nodeId: string): Promise<Node | null>;
}

/** What the accounts' use cases are given; wiring.ts builds the real one. */
export interface AccountsDeps {
  accounts: AccountRepository;
  tokens: TokenRepository;
  nodes: NodeRepository;
  clock: Clock;
  newId: () => string;
}
