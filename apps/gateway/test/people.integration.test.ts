import { randomUUID } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretKey } from '../src/accounts/domain/password-rules.js';
import { consoleSessions } from '../src/accounts/domain/sessions.use-cases.js';
import type { ConsoleSessions } from '../src/accounts/domain/people.js';
import { accountsDeps, peopleDeps } from '../src/wiring.js';
import { stackClient } from './e2e/stack-client.js';

// The real adapters on the stack's MongoDB (the running gateway's own database, so a DELETE over
// HTTP and this process's sessions meet) and Redis; argon2id for real.
const stack = readStackFile();
const api = stackClient();
const logger = createLogger('gateway-test', 'silent');
const PASSWORD = 'a long enough secret';
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;

describe('console people on MongoDB and Redis', () => {
  let mongo: MongoClient;
  let db: Db;
  let redis: Redis;
  let sessions: ConsoleSessions;
  beforeAll(async () => {
    mongo = await new MongoClient(stack.mongo_url, { serverSelectionTimeoutMS: 5_000 }).connect();
    db = mongo.db('gateway');
    redis = createRedis({ url: stack.redis_url, logger, name: `gateway-test-${randomUUID().slice(0, 6)}` });
    await waitForRedis(redis);
    const infra = { db, tokenCacheTtlMs: 1_000, idempotencyKeyTtlHours: 1 };
    const people = peopleDeps(infra, accountsDeps(infra), {
      redis,
      logger,
      limits: { perEmail: 3, perIp: 1_000, windowSec: 900 },
      idleHours: 12,
      maxDays: 7,
      publicBaseUrl: stack.base_url ?? 'http://127.0.0.1:8080',
    });
    sessions = consoleSessions(people);
  });
  afterAll(async () => {
    redis?.disconnect();
    await mongo?.close();
  });

  it('a session from signIn is stored by its hash only, and ends when the user is removed over the admin API', async () => {
    const account = await api.admin('POST', '/accounts', { name: 'people integration' });
    const email = address('member');
    const user = await api.admin('POST', `/accounts/${account.id}/users`, { email, name: 'Member', role: 'member', password: PASSWORD });
    const stored = await db.collection('users').findOne({ _id: user.id as never });
    expect(String(stored?.password_hash)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const res = await sessions.signIn({ email: email.toUpperCase(), password: PASSWORD, ip: '192.0.2.10' });
    if (!res.ok) throw new Error(`sign-in refused: ${res.reason}`);
    expect(res.viewer).toMatchObject({ userId: user.id, accountId: account.id, role: 'member' });
    const doc = await db.collection('sessions').findOne({ _id: secretKey(res.cookie) as never });
    expect(doc).toMatchObject({ user_id: user.id, csrf_token: res.viewer.csrfToken });
    expect(JSON.stringify(doc)).not.toContain(res.cookie);
    expect(await sessions.viewer(res.cookie)).toEqual(res.viewer);

    await api.admin('DELETE', `/accounts/${account.id}/users/${user.id}`);
    expect(await sessions.viewer(res.cookie)).toBeNull();
    expect(await db.collection('sessions').countDocuments({ user_id: user.id })).toBe(0);
  });

  it('an invite is used once; sign-out ends the session', async () => {
    const account = await api.admin('POST', '/accounts', { name: 'people integration invites' });
    const email = address('invited');
    const user = await api.admin('POST', `/accounts/${account.id}/users`, { email, name: 'Invited', role: 'viewer' });
    const token = String(user.invite_url).split('/').at(-1)!;
    const [first, second] = await Promise.all([
      sessions.acceptInvite(token, 'my own long secret'),
      sessions.acceptInvite(token, 'another long secret'),
    ]);
    expect([first.ok, second.ok].filter(Boolean)).toHaveLength(1);
    const accepted = first.ok ? first : second;
    if (!accepted.ok) throw new Error('no invite accepted');
    await sessions.signOut(accepted.cookie);
    expect(await sessions.viewer(accepted.cookie)).toBeNull();
  });

  it('counts failed sign-ins per e-mail in Redis and answers the wait; an unknown e-mail answers as a wrong password', async () => {
    const account = await api.admin('POST', '/accounts', { name: 'people integration limits' });
    const email = address('limited');
    await api.admin('POST', `/accounts/${account.id}/users`, { email, name: 'Limited', role: 'viewer', password: PASSWORD });
    const unknown = await sessions.signIn({ email: address('nobody'), password: 'wrong password!', ip: '192.0.2.11' });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await sessions.signIn({ email, password: 'wrong password!', ip: '192.0.2.11' }));
    expect(answers).toEqual([unknown, unknown, unknown]);
    const limited = await sessions.signIn({ email, password: PASSWORD, ip: '192.0.2.12' });
    expect(limited).toMatchObject({ ok: false, reason: 'limited' });
    if (limited.ok || limited.reason !== 'limited') throw new Error('not limited');
    expect(limited.retryAfterSec).toBeGreaterThan(800);
    expect(limited.retryAfterSec).toBeLessThanOrEqual(900);
  });
});
