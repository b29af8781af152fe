import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T>(p: Promise<{ stdout: string }>) => JSON.parse((await p).stdout) as T;
type User = { id: string; email: string; role: string; name: string; invite_url?: string | null };

// feedbackctl users and operators against the running stack, as an operator would use them.
describe('feedbackctl users', () => {
  it('creates (invite or password file), lists, shows, updates and deletes an account’s users', async () => {
    const account = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli users'));
    const acc = ['--account', account.id];
    const invited = await json<User>(
      cli('users', 'create', ...acc, '--email', `cli-${randomUUID().slice(0, 8)}@example.com`, '--name', 'Ada', '--role', 'member'),
    );
    expect(invited).toMatchObject({ role: 'member', invite_url: expect.stringMatching(/\/console\/invite\//) });

    const file = join(mkdtempSync(join(tmpdir(), 'cli-users-')), 'password');
    writeFileSync(file, 'a long enough secret\n');
    const owner = await json<User>(
      cli(
        'users',
        'create',
        ...acc,
        '--email',
        `cli-${randomUUID().slice(0, 8)}@example.com`,
        '--name',
        'Bo',
        '--role',
        'owner',
        '--password-file',
        file,
      ),
    );
    expect(owner.invite_url).toBeNull();

    const list = await json<{ data: User[]; next_page_token: string | null }>(cli('users', 'list', ...acc));
    expect(list.data.map((u) => u.id)).toEqual([owner.id, invited.id]);
    expect(await json<User>(cli('users', 'get', ...acc, '--user', invited.id))).toMatchObject({ name: 'Ada' });
    expect(await json<User>(cli('users', 'update', ...acc, '--user', invited.id, '--role', 'viewer'))).toMatchObject({ role: 'viewer' });
    expect(await json(cli('users', 'delete', ...acc, '--user', invited.id))).toEqual({ deleted: invited.id });

    const gone = await failure(cli('users', 'get', ...acc, '--user', invited.id));
    expect(gone.code).toBe(1);
    expect(apiError(gone.stderr).body).toMatchObject({ code: 13002, errors: { user_id: invited.id } });
    const badRole = await failure(cli('users', 'update', ...acc, '--user', owner.id, '--role', 'operator'));
    expect(badRole.code).toBe(2);
  });

  it('creates and lists operators', async () => {
    const op = await json<User>(cli('operators', 'create', '--email', `cli-op-${randomUUID().slice(0, 8)}@example.com`, '--name', 'Ops'));
    expect(op).toMatchObject({ role: 'operator' });
    const list = await json<{ data: User[] }>(cli('operators', 'list', '--page-size', '200'));
    expect(list.data.map((o) => o.id)).toContain(op.id);
  });
});
