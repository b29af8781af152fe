import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

const json = async <T = Record<string, unknown>>(p: ReturnType<typeof cli>) => JSON.parse((await p).stdout) as T;
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A phone's tap of a code on a customer domain (its Host). */
function tap(base: string, host: string, code: string) {
  const url = new URL(`${base}/${code}`);
  return new Promise<number>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host, 'user-agent': SAFARI_IOS } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

// feedbackctl links stats against the running stack: a link's clicks, as its account sees them.
describe('feedbackctl links stats', () => {
  it("shows one of an account's links' clicks by day and device; another account's link is a 404", async () => {
    const { shortener_url } = readStackFile();
    const account = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli link stats'));
    const domain = `cli-stats-${randomBytes(4).toString('hex')}.example.com`;
    await json(cli('domains', 'add', '--account', account.id, '--domain', domain));
    const token = await json<{ token: string }>(cli('tokens', 'create', '--account', account.id, '--kind', 'api', '--name', 'stats'));
    const res = await fetch(`${shortener_url}/shorten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token token=${token.token}` },
      body: JSON.stringify({ url: `https://example.com/cli-stats/${Date.now()}`, domain }),
    });
    const code = String(((await res.json()) as { id: string }).id);
    expect(await tap(shortener_url!, domain, code)).toBe(302);

    let stats: Record<string, unknown> = {};
    // Up to 45 s: a shortener restarted just before waits out its old consumer session (30 s).
    const deadline = Date.now() + 45_000;
    for (;;) {
      stats = await json(cli('links', 'stats', '--account', account.id, '--code', code, '--time-zone', 'Europe/Istanbul'));
      if (stats.clicks === 1 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(stats).toMatchObject({
      clicks: 1,
      bots_excluded: 0,
      interval: 'day',
      time_zone: 'Europe/Istanbul',
      devices: [{ name: 'mobile', clicks: 1 }],
    });

    const other = await json<{ id: string }>(cli('accounts', 'create', '--name', 'cli link stats other'));
    const foreign = await failure(cli('links', 'stats', '--account', other.id, '--code', code));
    expect(foreign.code).toBe(1);
    expect(apiError(foreign.stderr).line).toMatch(new RegExp(`^GET /admin/v1/accounts/${other.id}/links/${code}/stats failed: 404 `));
  }, 90_000);
});
