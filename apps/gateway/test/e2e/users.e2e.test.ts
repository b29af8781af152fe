import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, stackClient } from './stack-client.js';

const api = stackClient();
const admin = (method: string, path: string, body?: unknown) =>
  api.request(method, `/admin/v1${path}`, {
    headers: { authorization: `Bearer ${api.adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
// E-mails are unique in the deployment: each run its own.
const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;

describe('admin API: the console users of an account', () => {
  it('creates users with and without a password, lists, shows, changes and removes them', async () => {
    const account = await api.admin('POST', '/accounts', { name: 'users e2e' });
    const withPassword = await admin('POST', `/accounts/${account.id}/users`, {
      email: email('Owner'),
      name: 'Owner',
      role: 'owner',
      password: 'a long enough secret',
    });
    expect(withPassword.status).toBe(201);
    expect(Object.keys(withPassword.json).sort()).toEqual(['created_at', 'email', 'id', 'invite_url', 'name', 'role']);
    expect(withPassword.json).toMatchObject({ role: 'owner', invite_url: null });
    expect(withPassword.text).not.toContain('argon2');

    const invited = await admin('POST', `/accounts/${account.id}/users`, { email: email('viewer'), name: 'Viewer', role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.json.invite_url).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}$/);

    const page = await admin('GET', `/accounts/${account.id}/users?page_size=1`);
    expect(page.status).toBe(200);
    expect((page.json.data as { id: string }[]).map((u) => u.id)).toEqual([invited.json.id]);
    const rest = await admin('GET', `/accounts/${account.id}/users?page_size=1&page_token=${String(page.json.next_page_token)}`);
    expect(rest.json).toMatchObject({ data: [{ id: withPassword.json.id, role: 'owner' }], next_page_token: null });

    const userPath = `/accounts/${account.id}/users/${String(invited.json.id)}`;
    expect((await admin('GET', userPath)).json).toMatchObject({ name: 'Viewer', role: 'viewer' });
    const patched = await admin('PATCH', userPath, { role: 'member', name: 'Member now' });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id: invited.json.id, role: 'member', name: 'Member now' });
    expect((await admin('PATCH', userPath, { role: 'operator' })).status).toBe(400);

    expect((await admin('DELETE', userPath)).status).toBe(204);
    const gone = await admin('GET', userPath);
    expect(gone.status).toBe(404);
    expect(gone.json.errors).toEqual({ user_id: invited.json.id });
  });

  it("answers another account's user as 404, and a taken e-mail (any case) as 409 / 13060", async () => {
    const a = await api.admin('POST', '/accounts', { name: 'users e2e A' });
    const b = await api.admin('POST', '/accounts', { name: 'users e2e B' });
    const address = email('taken');
    const user = await admin('POST', `/accounts/${a.id}/users`, { email: address, name: 'A user', role: 'member' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await admin(method, `/accounts/${b.id}/users/${String(user.json.id)}`, body);
      expect(res.status).toBe(404);
      expect(res.json.errors).toEqual({ user_id: user.json.id });
    }
    expect((await admin('GET', `/accounts/${a.id}/users/${String(user.json.id)}`)).status).toBe(200);

    const dup = await admin('POST', `/accounts/${b.id}/users`, { email: address.toUpperCase(), name: 'Other', role: 'viewer' });
    expect(dup.status).toBe(409);
    expect(Object.keys(dup.json).sort()).toEqual(ERROR_KEYS);
    expect(dup.json).toMatchObject({ code: 13060, errors: { email: 'is already in use' } });
    const asOperator = await admin('POST', '/operators', { email: address, name: 'Op' });
    expect(asOperator.json.code).toBe(13060);
  });

  it('refuses bad input naming the field', async () => {
    const account = await api.admin('POST', '/accounts', { name: 'users e2e bad' });
    const cases: [unknown, string][] = [
      [{ email: email('x'), name: 'X', role: 'admin' }, 'body.role'],
      [{ email: 'not-an-email', name: 'X', role: 'viewer' }, 'body.email'],
      [{ email: email('x'), name: 'X', role: 'viewer', password: 'short' }, 'body.password'],
    ];
    for (const [body, field] of cases) {
      const res = await admin('POST', `/accounts/${account.id}/users`, body);
      expect(res.status).toBe(400);
      expect(res.json.errors).toHaveProperty([field]);
    }
    const same = 'someone.long@example.com';
    const samePassword = await admin('POST', `/accounts/${account.id}/users`, { email: same, name: 'X', role: 'viewer', password: same });
    expect(samePassword.status).toBe(400);
    expect(samePassword.json.errors).toEqual({ password: 'must not be the e-mail address' });
    expect((await admin('GET', `/accounts/${account.id}/users?page_token=made-up`)).json.errors).toHaveProperty(['page_token']);
    expect((await admin('GET', '/accounts/no-such-account/users')).status).toBe(404);
  });

  it('creates and lists operators (no account)', async () => {
    const created = await admin('POST', '/operators', { email: email('op'), name: 'Ops', password: 'a long enough secret' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ role: 'operator', invite_url: null });
    const list = await admin('GET', '/operators?page_size=200');
    expect(list.status).toBe(200);
    expect((list.json.data as { id: string; role: string }[]).find((o) => o.id === created.json.id)?.role).toBe('operator');
  });
});
