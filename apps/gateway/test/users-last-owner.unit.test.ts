import { AppError, pageOf } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import type { Account } from '../src/accounts/domain/account.js';
import { listAccounts } from '../src/accounts/domain/accounts.use-cases.js';
import { changeUserKeepingAnOwner, createUser, LAST_OWNER_CODE } from '../src/accounts/domain/users.use-cases.js';
import { peopleFakes } from './people-fakes.js';

const PASSWORD = 'a long enough secret';

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('an account keeps an owner (the console)', () => {
  it('refuses removing or demoting the last owner, allows it once another owner exists; removal ends the sessions', async () => {
    const f = peopleFakes();
    const { user: owner } = await createUser(f.deps, 'acc', { email: 'o@example.com', name: 'O', role: 'owner', password: PASSWORD });
    const { user: member } = await createUser(f.deps, 'acc', { email: 'm@example.com', name: 'M', role: 'member', password: PASSWORD });
    // An owner of another account does not count.
    await createUser(f.deps, 'other', { email: 'x@example.com', name: 'X', role: 'owner', password: PASSWORD });

    for (const change of [{ remove: true } as const, { role: 'viewer' }]) {
      const err = await refusal(changeUserKeepingAnOwner(f.deps, 'acc', owner.id, change));
      expect(err).toMatchObject({ kind: 'conflict', code: LAST_OWNER_CODE, fields: { user_id: "is the account's last owner" } });
    }
    expect(f.users.get(owner.id)?.role).toBe('owner');
    // A name change of the last owner, and keeping the role, are fine.
    expect(await changeUserKeepingAnOwner(f.deps, 'acc', owner.id, { name: 'Olga', role: 'owner' })).toMatchObject({ name: 'Olga' });

    await changeUserKeepingAnOwner(f.deps, 'acc', member.id, { role: 'owner' });
    f.sessions.set('h', { idHash: 'h', userId: owner.id } as never);
    expect(await changeUserKeepingAnOwner(f.deps, 'acc', owner.id, { remove: true })).toBeNull();
    expect(f.users.has(owner.id)).toBe(false);
    expect(f.sessions.size).toBe(0);
    // Another account's user: 404 as the admin API.
    expect(await refusal(changeUserKeepingAnOwner(f.deps, 'other', member.id, { remove: true }))).toMatchObject({ kind: 'not_found' });
  });
});

describe('listAccounts', () => {
  it('pages through the directory with the accounts page rule; a bad token is 400', async () => {
    const all: Account[] = Array.from({ length: 3 }, (_, i) => ({
      id: `a${i}`,
      name: `A${i}`,
      createdAt: new Date(Date.UTC(2026, 0, i + 1)),
    }));
    const directory = { list: async (q: Parameters<typeof pageOf>[1]) => pageOf(all, q, (a) => ({ at: a.createdAt, id: a.id })) };
    const first = await listAccounts(directory, { pageSize: 2, pageToken: '' });
    expect(first.items.map((a) => a.id)).toEqual(['a2', 'a1']);
    const rest = await listAccounts(directory, { pageSize: 2, pageToken: first.nextPageToken });
    expect(rest.items.map((a) => a.id)).toEqual(['a0']);
    expect(await refusal(listAccounts(directory, { pageSize: 2, pageToken: 'nonsense' }))).toMatchObject({ kind: 'invalid' });
  });
});
