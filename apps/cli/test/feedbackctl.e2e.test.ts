import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readStackFile } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: new URL('..', import.meta.url).pathname });

// feedbackctl against the running stack, as an operator would use it.
describe('feedbackctl', () => {
  it('seeds a demo account whose tokens and flow work through the public API', async () => {
    const { stdout } = await cli('seed');
    const out = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['account_id', 'api_token', 'flow_id', 'integration_token', 'node_id']);
    const { base_url } = readStackFile();
    const viaIntegration = await fetch(`${base_url}/external/v1/flows/${out.flow_id}`, { headers: { authorization: `Bearer ${out.integration_token}` } });
    expect(viaIntegration.status).toBe(200);
    const viaApi = await fetch(`${base_url}/external/v1/flows/${out.flow_id}`, { headers: { authorization: `Token token="${out.api_token}"` } });
    expect(((await viaApi.json()) as { name: string }).name).toBe('Store visit');
  });

  it('creates and revokes a token', async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli test')).stdout) as { id: string };
    const token = JSON.parse((await cli('tokens', 'create', '--account', account.id, '--kind', 'integration', '--name', 't')).stdout) as { id: string; token: string };
    expect(token.token).toMatch(/^fbk_int_/);
    await cli('tokens', 'revoke', '--account', account.id, '--token', token.id);
    const list = JSON.parse((await cli('tokens', 'list', '--account', account.id)).stdout) as { data: Array<{ id: string; revoked_at: string | null }> };
    expect(list.data.find((t) => t.id === token.id)?.revoked_at).toMatch(/\+00:00$/);
  });

  it('fails with the API error body and a non-zero exit for bad input', async () => {
    const err = (await cli('nodes', 'create', '--account', 'no-such-account', '--name', 'x').catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(1);
    expect(JSON.parse(err.stderr)).toMatchObject({ code: 13002, errors: { account_id: 'no-such-account' } });
    const usage = (await cli('tokens', 'create', '--account', 'a').catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--kind is required');
  });
});
