import type { AcceptInviteResult, ConsoleSessions, SignInResult, VerifiedSignInResult, Viewer } from './people.js';
import type { PeopleDeps } from './people.ports.js';
import { emailKeyOf, MAX_PASSWORD_LENGTH, newSecret, passwordProblem, secretKey } from './password-rules.js';
import type { Session, User } from './user.js';

/**
 * A session's last-seen time is written at most this often: the idle limit slides with use,
 * without a database write per page.
 */
const TOUCH_EVERY_MS = 60_000;
// Cookie values are 43 base64url characters; anything far longer is no value this code made.
const MAX_COOKIE = 200;
// RFC 5321's limit on an address: a longer claim matches no user and is not looked up.
const MAX_EMAIL = 254;

const viewerOf = (user: User, session: Session): Viewer => ({
  userId: user.id,
  accountId: user.accountId,
  role: user.role,
  email: user.email,
  name: user.name,
  csrfToken: session.csrfToken,
});

/** The console's sign-in and sessions (people.ts ConsoleSessions) on the people's ports. */
export function consoleSessions(deps: PeopleDeps): ConsoleSessions {
  const expiryOf = (createdAt: Date, seenAt: Date) =>
    new Date(Math.min(seenAt.getTime() + deps.policy.idleMs, createdAt.getTime() + deps.policy.absoluteMs));

  // Unknown e-mails cost one argon2 verification too, so the answer's time tells nothing.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= deps.hasher.hash(newSecret()));

  async function newSession(user: User): Promise<{ ok: true; cookie: string; viewer: Viewer }> {
    const cookie = newSecret();
    const now = deps.clock.now();
    const session: Session = {
      idHash: secretKey(cookie),
      userId: user.id,
      csrfToken: newSecret(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: expiryOf(now, now),
    };
    await deps.sessions.insert(session);
    return { ok: true, cookie, viewer: viewerOf(user, session) };
  }

  return {
    async signIn({ email, password, ip }): Promise<SignInResult> {
      const key = emailKeyOf(email);
      const wait = await deps.limiter.blockedFor(ip, key);
      if (wait > 0) return { ok: false, reason: 'limited', retryAfterSec: wait };
      const user = password.length <= MAX_PASSWORD_LENGTH ? await deps.users.findByEmailKey(key) : null;
      const hash = user?.passwordHash ?? (await dummyHash());
      const matches = password.length <= MAX_PASSWORD_LENGTH && (await deps.hasher.verify(hash, password));
      if (!user?.passwordHash || !matches) {
        await deps.limiter.failed(ip, key);
        return { ok: false, reason: 'invalid' };
      }
      await deps.limiter.succeeded(key);
      return newSession(user);
    },

    async viewer(cookie) {
      if (!cookie || cookie.length > MAX_COOKIE) return null;
      const idHash = secretKey(cookie);
      const session = await deps.sessions.find(idHash);
      if (!session) return null;
      const now = deps.clock.now();
      if (now.getTime() >= session.expiresAt.getTime()) {
        await deps.sessions.delete(idHash);
        return null;
      }
      // Read every time (no cache): a removed user or a changed role holds on every replica at once.
      const user = await deps.users.findById(session.userId);
      if (!user) return null;
      if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS)
        await deps.sessions.touch(idHash, now, expiryOf(session.createdAt, now));
      return viewerOf(user, session);
    },

    async signOut(cookie) {
      if (cookie && cookie.length <= MAX_COOKIE) await deps.sessions.delete(secretKey(cookie));
    },

    async acceptInvite(token, password): Promise<AcceptInviteResult> {
      if (!token || token.length > MAX_COOKIE) return { ok: false, reason: 'invalid' };
      const tokenHash = secretKey(token);
      const invite = await deps.invites.find(tokenHash);
      if (!invite || deps.clock.now().getTime() >= invite.expiresAt.getTime()) return { ok: false, reason: 'invalid' };
      const user = await deps.users.findById(invite.userId);
      if (!user) return { ok: false, reason: 'invalid' };
      // Checked before the invite is used up: a refused password leaves the link working.
      if (passwordProblem(password, user.email)) return { ok: false, reason: 'weak_password' };
      if (!(await deps.invites.take(tokenHash))) return { ok: false, reason: 'invalid' };
      const updated = await deps.users.update(user.id, { passwordHash: await deps.hasher.hash(password) });
      if (!updated) return { ok: false, reason: 'invalid' };
      await deps.sessions.deleteByUser(user.id);
      return newSession(updated);
    },

    // The provider checked who this is; the password limiter guards guessing, so it is not asked.
    // An invited user who never set a password signs in too: the user exists, made by a person.
    async signInVerified({ email }): Promise<VerifiedSignInResult> {
      if (!email || email.length > MAX_EMAIL) return { ok: false, reason: 'invalid' };
      const user = await deps.users.findByEmailKey(emailKeyOf(email));
      if (!user) return { ok: false, reason: 'invalid' };
      return newSession(user);
    },
  };
}
