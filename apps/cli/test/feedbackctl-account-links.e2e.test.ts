import { randomBytes } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;

// feedbackctl links list / get: an account's links as its API token sees them (docs/api.md "An account's links").
describe('feedbackctl links list and get', () => {
  it("lists an account's links with their tags and limits, newest first; gets one; another account's is a 404", async () => {
    const account = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli links'));
    const token = await json<{ token: string }>(cli('tokens', 'create', '--account', account.id, '--kind', 'api', '--name', 'cli'));
    const domain = `cli-links-${randomBytes(4).toString('hex')}.example.com`;
    await json(cli('domains', 'add', '--account', account.id, '--domain', domain));
    const { shortener_url } = readStackFile();
    const ids: string[] = [];
    for (const body of [
      { url: 'https://example.com/a', domain, tags: ['shelf'] },
      { url: 'https://example.com/b', domain, max_clicks: 3 },
    ]) {
      const res = await fetch(`${shortener_url}/shorten`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Token token=${token.token}` },
        body: JSON.stringify(body),
      });
      ids.push(((await res.json()) as { id: string }).id);
    }

    const listed = await json<{ data: Array<Record<string, unknown>>; next_page_token: string | null }>(
      cli('links', 'list', '--account', account.id),
    );
    expect(listed.data.map((l) => l.id)).toEqual([ids[1], ids[0]]);
    expect(listed.data[0]).toMatchObject({ full_url: 'https://example.com/b', max_clicks: 3, tags: [], domain });
    const tagged = await json<{ data: Array<{ id: string }> }>(cli('links', 'list', '--account', account.id, '--tag', 'shelf'));
    expect(tagged.data.map((l) => l.id)).toEqual([ids[0]]);
    expect(await json(cli('links', 'get', '--account', account.id, '--code', ids[0]!))).toMatchObject({ id: ids[0], tags: ['shelf'] });

    const other = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli links other'));
    const foreign = await failure(cli('links', 'get', '--account', other.id, '--code', ids[0]!));
    expect(apiError(foreign.stderr).body).toMatchObject({ code: 13002, errors: { code: ids[0] } });
  });
});
