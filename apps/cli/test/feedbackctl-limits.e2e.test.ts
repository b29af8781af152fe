import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

// feedbackctl limits against the running stack. Only a fresh account's own limits change: the
// deployment's are shared by every test running beside this one, so those are only read.
describe('feedbackctl limits', () => {
  it("sets a fresh account's own limits, shows them with each tier's usage, resets them", async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli limits')).stdout) as { id: string };

    const set = JSON.parse((await cli('limits', 'set', '--account', account.id, '--tiers', '2/60,100/3600')).stdout) as Record<
      string,
      unknown
    >;
    expect(set).toMatchObject({
      account_id: account.id,
      source: 'account',
      enabled: true,
      tiers: [
        { name: 't0', limit: 2, window_seconds: 60, used: 0, remaining: 2, resets_at: null },
        { name: 't1', limit: 100, window_seconds: 3600, used: 0, remaining: 100, resets_at: null },
      ],
    });
    expect(JSON.parse((await cli('limits', 'get', '--account', account.id)).stdout)).toMatchObject({
      source: 'account',
      usage_from: 'redis',
    });

    const off = JSON.parse((await cli('limits', 'set', '--account', account.id, '--tiers', 'off')).stdout) as Record<string, unknown>;
    expect(off).toMatchObject({ source: 'account', enabled: false, tiers: [], usage_from: 'none' });

    const reset = JSON.parse((await cli('limits', 'reset', '--account', account.id)).stdout) as Record<string, unknown>;
    expect(reset.source).not.toBe('account');
    const again = await failure(cli('limits', 'reset', '--account', account.id));
    expect(again.code).toBe(1);
    expect(apiError(again.stderr).body).toMatchObject({ code: 13002, errors: { sms_limits: account.id } });

    const deployment = JSON.parse((await cli('limits', 'get')).stdout) as Record<string, unknown>;
    expect(['stored', 'file', 'default']).toContain(deployment.source);
    expect(deployment).toHaveProperty('accounts_with_own_limits');
  });

  it('refuses a malformed --tiers before calling, and neither or both of --tiers and --file', async () => {
    const bad = await failure(cli('limits', 'set', '--account', 'any', '--tiers', '20 per 5'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--tiers: "20 per 5" is not LIMIT/SECONDS');
    const neither = await failure(cli('limits', 'set', '--account', 'any'));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('one of --tiers and --file');
  });
});
