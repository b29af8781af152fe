import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;

// feedbackctl domains and links against the running stack, as an operator would use them.
describe('feedbackctl domains and links', () => {
  it("adds, lists and removes an account's customer domains; another account's domain is refused", async () => {
    const account = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli domains'));
    const [first, second] = [1, 2].map((n) => `cli-${n}-${randomBytes(4).toString('hex')}.example.com`);
    const added = await json(cli('domains', 'add', '--account', account.id, '--domain', first!));
    expect(added).toEqual({ domain: first, default: true, created_at: expect.stringMatching(/\+00:00$/) });
    expect(await json(cli('domains', 'add', '--account', account.id, '--domain', second!))).toMatchObject({
      domain: second,
      default: false,
    });
    const listed = await json<{ data: Array<{ domain: string }> }>(cli('domains', 'list', '--account', account.id));
    expect(listed.data.map((d) => d.domain)).toEqual([first, second]);

    const other = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli domains other'));
    const taken = await failure(cli('domains', 'add', '--account', other.id, '--domain', first!));
    expect(taken.code).toBe(1);
    expect(apiError(taken.stderr).line).toMatch(
      new RegExp(`^POST /admin/v1/accounts/${other.id}/domains failed: 409 Conflict, code \\d+: `),
    );

    expect(await json(cli('domains', 'remove', '--account', account.id, '--domain', first!))).toEqual({
      removed: { domain: first },
      account_id: account.id,
    });
    const left = await json<{ data: Array<{ domain: string }> }>(cli('domains', 'list', '--account', account.id));
    expect(left.data.map((d) => d.domain)).toEqual([second]);
  });

  it('shows a short link with its click count; an unknown code is a 404 naming it', async () => {
    const { shortener_url } = readStackFile();
    const target = `https://example.com/cli-${randomBytes(4).toString('hex')}`;
    const res = await fetch(`${shortener_url}/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: target }),
    });
    const { id } = (await res.json()) as { id: string };
    expect(await json(cli('links', 'show', '--code', id))).toMatchObject({ id, full_url: target, clicks: 0 });
    // A phone's browser: fetch's own user agent is a tool's, and tools' taps are no clicks.
    const browser = {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    };
    expect((await fetch(`${shortener_url}/${id}`, { redirect: 'manual', headers: browser })).status).toBe(302);
    // The click is counted on its way (a moment later), so ask until it shows.
    let clicks = 0;
    for (let i = 0; i < 40 && clicks !== 1; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 250));
      clicks = (await json<{ clicks: number }>(cli('links', 'show', '--code', id))).clicks;
    }
    expect(clicks).toBe(1);

    const unknown = await failure(cli('links', 'show', '--code', 'nope0000'));
    expect(unknown.code).toBe(1);
    const { line, body } = apiError(unknown.stderr);
    expect(line).toBe('GET /admin/v1/links/nope0000 failed: 404 Not Found, code 13002: Requested resource not found!');
    expect(body).toMatchObject({ code: 13002, errors: { code: 'nope0000' } });
  });
});
