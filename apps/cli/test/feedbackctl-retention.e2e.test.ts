import { describe, expect, it } from 'vitest';
import { apiError, cli, failure } from './run-cli.js';

// feedbackctl retention against the running stack, as an operator would use it.
describe('feedbackctl retention', () => {
  it("sets an account's retention (every kind, one over it), shows the effective values, and names a bad value's field", async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli retention')).stdout) as { id: string };
    const set = JSON.parse((await cli('retention', 'set', '--account', account.id, '--days', '180', '--messages', '30')).stdout) as unknown;
    expect(set).toMatchObject({
      account_id: account.id,
      retention_days: 180,
      messages: { days: 30, source: 'account' },
      responses: { days: 180, source: 'account' },
      webhook_deliveries: { days: 180, source: 'account' },
    });
    expect(JSON.parse((await cli('retention', 'get', '--account', account.id)).stdout)).toEqual(set);

    const bad = await failure(cli('retention', 'set', '--account', account.id, '--responses', 'ten'));
    expect(bad.code).toBe(1);
    expect(apiError(bad.stderr).body).toMatchObject({ code: 13000, errors: { 'body.responses_days': expect.any(String) } });
  });
});
