import type { Clock, Page, PageQuery } from '@feedback/kit-core';
import type { AccountRepository } from './ports.js';
import type { Invite, Session, User } from './user.js';

export interface UserRepository {
  /** 'duplicate' when the e-mail (case-insensitive) is taken in the deployment. */
  insert(user: User): Promise<'ok' | 'duplicate'>;
  findById(id: string): Promise<User | null>;
  findByEmailKey(emailKey: string): Promise<User | null>;
  /** The users of an account, or the operators (accountId null), newest first. */
  list(accountId: string | null, page: PageQuery): Promise<Page<User>>;
  update(id: string, patch: Partial<Pick<User, 'name' | 'role' | 'passwordHash'>>): Promise<User | null>;
  delete(id: string): Promise<boolean>;
  anyOperator(): Promise<boolean>;
}

export interface SessionRepository {
  insert(session: Session): Promise<void>;
  find(idHash: string): Promise<Session | null>;
  touch(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  deleteByUser(userId: string): Promise<void>;
}

export interface InviteRepository {
  insert(invite: Invite): Promise<void>;
  find(tokenHash: string): Promise<Invite | null>;
  /** Removes and answers the invite: only one caller ever gets it (single use). */
  take(tokenHash: string): Promise<Invite | null>;
  deleteByUser(userId: string): Promise<void>;
}

/** argon2id in production (adapters/argon2.hasher.ts). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Failed sign-ins counted per client IP and per e-mail (adapters/sign-in.limiter.ts). */
export interface SignInLimiter {
  /** Seconds until this IP or e-mail may try again; 0 when it may now. */
  blockedFor(ip: string, emailKey: string): Promise<number>;
  failed(ip: string, emailKey: string): Promise<void>;
  /** A success clears the e-mail's count (not the IP's: one office, many people). */
  succeeded(emailKey: string): Promise<void>;
}

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  inviteTtlMs: number;
  /** The console page an invite token opens. */
  inviteUrl: (token: string) => string;
}

/** What the people's use cases are given; wiring.ts builds the real one. */
export interface PeopleDeps {
  accounts: AccountRepository;
  users: UserRepository;
  sessions: SessionRepository;
  invites: InviteRepository;
  hasher: PasswordHasher;
  limiter: SignInLimiter;
  policy: SessionPolicy;
  clock: Clock;
  newId: () => string;
}
