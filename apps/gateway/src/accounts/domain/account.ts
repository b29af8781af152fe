export type TokenKind = 'api' | 'integration';
export const TOKEN_KINDS: readonly TokenKind[] = ['api', 'integration'];

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ApiToken {
  id: string;
  accountId: string;
  kind: TokenKind;
  name: string;
  /** SHA-256 of the secret; the secret itself is shown once and never stored. */
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface Node {
  id: string;
  accountId: string;
  name: string;
  createdAt: Date;
}

/** Who is calling, once a token has been checked. */
export interface Principal {
  accountId: string;
  tokenId: string;
  kind: TokenKind;
}
