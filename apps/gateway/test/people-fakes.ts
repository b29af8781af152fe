import { pageOf } from '@feedback/kit-core';
import type { PeopleDeps } from '../src/accounts/domain/people.ports.js';
import type { Invite, Session, User } from '../src/accounts/domain/user.js';

/**
 * In-memory fakes of the people's ports: a hasher that marks its input (no argon2 in unit tests),
 * a limiter that counts failures, and a clock the test moves.
 */
export function peopleFakes(opts: { maxFailures?: number } = {}) {
  const users = new Map<string, User>();
  const sessions = new Map<string, Session>();
  const invites = new Map<string, Invite>();
  const failures = new Map<string, number>();
  const hashed: string[] = [];
  const verified: string[] = [];
  const max = opts.maxFailures ?? 10;
  let now = new Date('2026-11-28T10:00:00.000Z');
  let ids = 0;
  const deps: PeopleDeps = {
    accounts: {
      insert: async () => undefined,
      findById: async (id) => (id === 'acc' || id === 'other' ? { id, name: id, createdAt: now } : null),
    },
    users: {
      insert: async (u) => {
        if ([...users.values()].some((x) => x.emailKey === u.emailKey)) return 'duplicate';
        users.set(u.id, { ...u });
        return 'ok';
      },
      findById: async (id) => users.get(id) ?? null,
      findByEmailKey: async (key) => [...users.values()].find((u) => u.emailKey === key) ?? null,
      list: async (accountId, q) =>
        pageOf(
          [...users.values()].filter((u) => u.accountId === accountId),
          q,
          (u) => ({ at: u.createdAt, id: u.id }),
        ),
      update: async (id, patch) => {
        const u = users.get(id);
        if (!u) return null;
        const next = { ...u, ...patch };
        users.set(id, next);
        return next;
      },
      delete: async (id) => users.delete(id),
      anyOperator: async () => [...users.values()].some((u) => u.role === 'operator'),
    },
    sessions: {
      insert: async (s) => void sessions.set(s.idHash, { ...s }),
      find: async (h) => sessions.get(h) ?? null,
      touch: async (h, lastSeenAt, expiresAt) => {
        const s = sessions.get(h);
        if (s) sessions.set(h, { ...s, lastSeenAt, expiresAt });
      },
      delete: async (h) => void sessions.delete(h),
      deleteByUser: async (userId) => {
        for (const [h, s] of sessions) if (s.userId === userId) sessions.delete(h);
      },
    },
    invites: {
      insert: async (i) => void invites.set(i.tokenHash, { ...i }),
      find: async (h) => invites.get(h) ?? null,
      take: async (h) => {
        const i = invites.get(h) ?? null;
        invites.delete(h);
        return i;
      },
      deleteByUser: async (userId) => {
        for (const [h, i] of invites) if (i.userId === userId) invites.delete(h);
      },
    },
    hasher: {
      hash: async (pw) => (hashed.push(pw), `hashed:${pw}`),
      verify: async (hash, pw) => (verified.push(hash), hash === `hashed:${pw}`),
    },
    limiter: {
      blockedFor: async (ip, key) => ((failures.get(`ip:${ip}`) ?? 0) >= max * 5 || (failures.get(`email:${key}`) ?? 0) >= max ? 900 : 0),
      failed: async (ip, key) => {
        failures.set(`ip:${ip}`, (failures.get(`ip:${ip}`) ?? 0) + 1);
        failures.set(`email:${key}`, (failures.get(`email:${key}`) ?? 0) + 1);
      },
      succeeded: async (key) => void failures.delete(`email:${key}`),
    },
    policy: {
      idleMs: 12 * 3_600_000,
      absoluteMs: 7 * 86_400_000,
      inviteTtlMs: 7 * 86_400_000,
      inviteUrl: (token) => `https://feedback.example/console/invite/${token}`,
    },
    clock: { now: () => now },
    newId: () => `u${++ids}`,
  };
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  return { deps, users, sessions, invites, failures, hashed, verified, advance };
}

/** The token at the end of an invite URL. */
export const inviteToken = (url: string | null) => (url ?? '').split('/').at(-1) ?? '';
