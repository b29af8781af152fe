import type { Role } from './people.js';

/** A person who signs in to the console: a user of one account, or an operator (accountId null). */
export interface User {
  id: string;
  accountId: string | null;
  /** As given (trimmed); `emailKey` is its lower-case form, unique in the deployment. */
  email: string;
  emailKey: string;
  name: string;
  role: Role;
  /** The argon2id hash (PHC string); null until an invited user sets a password. */
  passwordHash: string | null;
  createdAt: Date;
}

/** A signed-in console session, stored under the SHA-256 of its cookie value (never the value itself). */
export interface Session {
  idHash: string;
  userId: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The earlier of the idle and the absolute limit; the store's TTL index removes it later. */
  expiresAt: Date;
}

/** A single-use invitation to set a password, stored under the SHA-256 of its token. */
export interface Invite {
  tokenHash: string;
  userId: string;
  expiresAt: Date;
}
