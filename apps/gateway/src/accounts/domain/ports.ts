import type { Clock, Page, PageQuery } from '@feedback/kit-core';
import type { Account, ApiToken, Node } from './account.js';

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | null>;
}

/** Every account of the deployment, a page at a time (the operators' console lists them). */
export interface AccountDirectory {
  list(page: PageQuery): Promise<Page<Account>>;
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

/** A stored answer: replayed as is for the same key and request. */
export interface StoredAnswer {
  status: number;
  body: string;
  contentType: string;
}

export type IdempotencyClaim =
  { outcome: 'claimed' } | { outcome: 'replay'; answer: StoredAnswer } | { outcome: 'mismatch' } | { outcome: 'in_flight' };

/** Idempotency-Key records (Stripe's semantics; docs/decisions.md "SMS sharing"). */
export interface IdempotencyKeys {
  /** Claims the key for this request, or says why not (its answer to replay, another request's key, still running). */
  claim(id: string, requestHash: string, now: Date): Promise<IdempotencyClaim>;
  complete(id: string, answer: StoredAnswer, now: Date): Promise<void>;
  /** Drops an unfinished claim (the request failed before an answer worth keeping), so a retry may run. */
  release(id: string): Promise<void>;
}
