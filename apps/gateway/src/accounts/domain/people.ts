/**
 * The people who use the console: users of one account with a role, and the deployment's
 * operators (all accounts). The console's pages know them only through `ConsoleSessions`.
 */
export type AccountRole = 'owner' | 'member' | 'viewer';
export type Role = AccountRole | 'operator';
export const ACCOUNT_ROLES: readonly AccountRole[] = ['owner', 'member', 'viewer'];

/** Who is signed in, as a console page needs it. */
export interface Viewer {
  userId: string;
  /** The user's account; null for an operator, who sees every account. */
  accountId: string | null;
  role: Role;
  email: string;
  name: string;
  /** The session's CSRF token: every form the console serves carries it, every POST is checked against it. */
  csrfToken: string;
}

export type SignInResult =
  | { ok: true; cookie: string; viewer: Viewer }
  /** `invalid`: the same answer for an unknown e-mail and a wrong password (no enumeration). */
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'limited'; retryAfterSec: number };

export type AcceptInviteResult = { ok: true; cookie: string; viewer: Viewer } | { ok: false; reason: 'invalid' | 'weak_password' };

/** Sign-in, sessions and invites, as the console uses them (the cookie value is opaque to it). */
export interface ConsoleSessions {
  /** Checks e-mail and password, limited per client IP and per e-mail; a new session on success. */
  signIn(input: { email: string; password: string; ip: string }): Promise<SignInResult>;
  /** The session behind a cookie value; null when unknown, ended (sign-out, user removed, password changed) or expired. */
  viewer(cookie: string): Promise<Viewer | null>;
  /** Ends the session on every replica at once. */
  signOut(cookie: string): Promise<void>;
  /** Sets the password of an invited user (the invite link's token, single use) and signs them in. */
  acceptInvite(token: string, password: string): Promise<AcceptInviteResult>;
  /**
   * Signs in the user whose e-mail an identity provider the deployment trusts has verified
   * (console single sign-on): the same session as `signIn` makes, no password asked. `invalid`
   * when no user has that e-mail: nobody is created and no role is given here.
   */
  signInVerified(input: { email: string; ip: string }): Promise<VerifiedSignInResult>;
}

export type VerifiedSignInResult = { ok: true; cookie: string; viewer: Viewer } | { ok: false; reason: 'invalid' };
