import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

// feedbackctl sms-provider against the running stack, as an operator would use it.
describe('feedbackctl sms-provider', () => {
  it("sets an account's own provider from a file (the sender from the command line), shows it masked, removes it", async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli sms provider')).stdout) as { id: string };
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const file = join(mkdtempSync(join(tmpdir(), 'cli-')), 'provider.json');
    writeFileSync(
      file,
      JSON.stringify({
        url: 'https://sms.example.com/api/send',
        method: 'GET',
        sender: 'FILE',
        query: { user: 'acme', password, from: '{sender}', to: '{to}', text: '{text}' },
      }),
    );

    const set = await cli('sms-provider', 'set', '--account', account.id, '--file', file, '--sender', 'ACME');
    expect(set.stdout).not.toContain(password);
    const shown = JSON.parse(set.stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({
      url: 'https://sms.example.com/api/send',
      sender: 'ACME',
      query: { user: '****', password: '****', from: '{sender}', to: '{to}', text: '{text}' },
    });
    const show = await cli('sms-provider', 'show', '--account', account.id);
    expect(JSON.parse(show.stdout)).toEqual(shown);

    expect(JSON.parse((await cli('sms-provider', 'remove', '--account', account.id)).stdout)).toEqual({
      removed: 'sms_provider',
      account_id: account.id,
    });
    const none = await failure(cli('sms-provider', 'show', '--account', account.id));
    expect(none.code).toBe(1);
    expect(apiError(none.stderr).body).toMatchObject({ code: 13002, errors: { sms_provider: account.id } });
  });

  it('refuses a provider without its placeholders naming them, and a file that is not JSON without echoing it', async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli sms provider bad')).stdout) as { id: string };
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ url: 'https://sms.example.com/send', sender: 'ACME', query: { key: 'k' } }));
    const bad = await failure(cli('sms-provider', 'set', '--account', account.id, '--file', join(dir, 'bad.json')));
    expect(bad.code).toBe(1);
    expect(apiError(bad.stderr).body).toMatchObject({
      code: 13000,
      errors: { '{to}': 'must appear in query, headers or body', '{text}': 'must appear in query, headers or body' },
    });
    writeFileSync(join(dir, 'broken.json'), '{"password": "hunter2"');
    const broken = await failure(cli('sms-provider', 'set', '--account', account.id, '--file', join(dir, 'broken.json')));
    expect(broken.stderr.trim()).toBe(`${join(dir, 'broken.json')} is not valid JSON`);
    expect(broken.code).toBe(2);
  });
});
