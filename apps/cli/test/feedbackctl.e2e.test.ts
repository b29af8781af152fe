import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '@feedback/dev-stack';
import { describe, expect, it } from 'vitest';
import { apiError, cli } from './run-cli.js';

// feedbackctl against the running stack, as an operator would use it.
describe('feedbackctl', () => {
  it('seeds a demo account whose tokens and flow work through the public API', async () => {
    const { stdout, stderr } = await cli('seed');
    const out = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual([
      'account_id',
      'api_token',
      'channel_id',
      'customer',
      'flow_id',
      'integration_token',
      'node_id',
      'operator',
      'sms_campaign_id',
      'survey_link',
    ]);
    const { base_url } = readStackFile();
    // The printed personal link opens the survey, and the customer's active surveys list it.
    expect(out.survey_link).toMatch(new RegExp(`^${base_url}/s/[\\w-]{32}$`));
    const page = await fetch(out.survey_link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('How likely are you to recommend us to a friend?');
    const active = await fetch(`${base_url}/external/v1/nodes/${out.node_id}/active_surveys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${out.integration_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { external_id: 'demo-customer-1' } }),
    });
    expect(((await active.json()) as { surveys: Array<{ Link: string }> }).surveys.map((s) => s.Link)).toEqual([out.survey_link]);
    const viaIntegration = await fetch(`${base_url}/external/v1/flows/${out.flow_id}`, {
      headers: { authorization: `Bearer ${out.integration_token}` },
    });
    expect(viaIntegration.status).toBe(200);
    const viaApi = await fetch(`${base_url}/external/v1/flows/${out.flow_id}`, {
      headers: { authorization: `Token token="${out.api_token}"` },
    });
    expect(((await viaApi.json()) as { name: string }).name).toBe('Store visit');
    // Each step on stderr as it is done, naming what it made; stdout above is the JSON alone.
    expect(stderr.trimEnd().split('\n')).toEqual([
      `seed [1/9] account ${out.account_id} created`,
      expect.stringMatching(/^seed \[2\/9\] api token [\w-]{36} created$/),
      expect.stringMatching(/^seed \[3\/9\] integration token [\w-]{36} created$/),
      `seed [4/9] node ${out.node_id} created`,
      `seed [5/9] flow ${out.flow_id} created`,
      `seed [6/9] channel ${out.channel_id} created`,
      `seed [7/9] survey link ${out.survey_link} made`,
      `seed [8/9] SMS campaign ${out.sms_campaign_id} created`,
      expect.stringMatching(/^seed \[9\/9\] operator \S+@\S+ (created \(its password is printed only now\)|exists)$/),
    ]);
  });

  it('seeds an SMS campaign the printed API token can send a sharing with', async () => {
    const out = JSON.parse((await cli('seed')).stdout) as Record<string, string>;
    const { base_url } = readStackFile();
    const campaigns = JSON.parse((await cli('campaigns', 'list', '--account', out.account_id!)).stdout) as {
      data: Array<{ id: string; node_id: string; message_template: string }>;
    };
    expect(campaigns.data).toEqual([
      expect.objectContaining({ id: out.sms_campaign_id, node_id: out.node_id, message_template: expect.stringContaining('{{link}}') }),
    ]);
    const sharing = await fetch(`${base_url}/v1/sms_campaigns/${out.sms_campaign_id}/sms_sharings`, {
      method: 'POST',
      headers: { authorization: `Token token=${out.api_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_numbers: ['+905321234567'] }),
    });
    expect(sharing.status).toBe(200);
    expect(await sharing.json()).toMatchObject({ campaign_id: out.sms_campaign_id, accepted: 1 });
  });

  it('creates and lists SMS campaigns, newest first; a template without {{link}} is refused', async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli campaigns')).stdout) as { id: string };
    const node = JSON.parse((await cli('nodes', 'create', '--account', account.id, '--name', 'Store')).stdout) as { id: string };
    const flowFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'flow.json');
    writeFileSync(flowFile, JSON.stringify({ name: 'F', questions: [{ key: 'nps', body: { en: 'NPS?' }, style: 'nps' }] }));
    const flow = JSON.parse((await cli('flows', 'create', '--account', account.id, '--file', flowFile)).stdout) as { id: string };
    const create = async (name: string) =>
      JSON.parse(
        (
          await cli(
            'campaigns',
            'create',
            '--account',
            account.id,
            '--name',
            name,
            '--node',
            node.id,
            '--flow',
            flow.id,
            '--template',
            'Hi {{name}}: {{link}}',
            '--ttl-days',
            '3',
          )
        ).stdout,
      ) as Record<string, unknown>;
    const first = await create('first');
    expect(first).toMatchObject({ name: 'first', node_id: node.id, flow_id: flow.id, message_template: 'Hi {{name}}: {{link}}' });
    const second = await create('second');
    const list = JSON.parse((await cli('campaigns', 'list', '--account', account.id)).stdout) as { data: Array<{ id: string }> };
    expect(list.data.map((c) => c.id)).toEqual([second.id, first.id]);
    const bad = (await cli(
      'campaigns',
      'create',
      '--account',
      account.id,
      '--name',
      'x',
      '--node',
      node.id,
      '--flow',
      flow.id,
      '--template',
      'no link',
    ).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(bad.code).toBe(1);
    const refused = apiError(bad.stderr);
    expect(refused.line).toMatch(new RegExp(`^POST /admin/v1/accounts/${account.id}/sms_campaigns failed: 400 Bad Request, code 13000: `));
    expect(refused.body).toMatchObject({ code: 13000, errors: { message_template: expect.any(String) } });
  });

  it("sets a campaign's send window and reminders, clears the window, and names a bad time zone", async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli campaign rules')).stdout) as { id: string };
    const node = JSON.parse((await cli('nodes', 'create', '--account', account.id, '--name', 'Store')).stdout) as { id: string };
    const flowFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'flow.json');
    writeFileSync(flowFile, JSON.stringify({ name: 'F', questions: [{ key: 'nps', body: { en: 'NPS?' }, style: 'nps' }] }));
    const flow = JSON.parse((await cli('flows', 'create', '--account', account.id, '--file', flowFile)).stdout) as { id: string };
    const campaign = JSON.parse(
      (
        await cli(
          'campaigns',
          'create',
          '--account',
          account.id,
          '--name',
          'c',
          '--node',
          node.id,
          '--flow',
          flow.id,
          '--template',
          'Hi {{link}}',
        )
      ).stdout,
    ) as { id: string };
    const at = ['--account', account.id, '--campaign', campaign.id];
    const windowed = JSON.parse(
      (await cli('campaigns', 'window', ...at, '--start', '09:00', '--end', '21:00', '--time-zone', 'Europe/Istanbul', '--days', 'mon,fri'))
        .stdout,
    ) as Record<string, unknown>;
    expect(windowed.send_window).toEqual({ start: '09:00', end: '21:00', time_zone: 'Europe/Istanbul', days: ['mon', 'fri'] });
    const reminded = JSON.parse(
      (await cli('campaigns', 'reminders', ...at, '--after', 'P1D,P3D', '--template', 'Still time: {{link}}')).stdout,
    ) as Record<string, unknown>;
    expect(reminded.reminders).toEqual([
      { after: 'P1D', message_template: 'Still time: {{link}}' },
      { after: 'P3D', message_template: 'Still time: {{link}}' },
    ]);
    expect(reminded.send_window).toEqual(windowed.send_window);
    const cleared = JSON.parse((await cli('campaigns', 'window', ...at, '--clear', 'yes')).stdout) as Record<string, unknown>;
    expect(cleared.send_window).toBeNull();
    const bad = (await cli('campaigns', 'window', ...at, '--start', '09:00', '--end', '21:00', '--time-zone', 'Mars/Olympus').catch(
      (e: unknown) => e,
    )) as { code: number; stderr: string };
    expect(bad.code).toBe(1);
    expect(apiError(bad.stderr).body).toMatchObject({ code: 13000, errors: { 'send_window.time_zone': expect.any(String) } });
  });

  it('binds a directory to an SMS campaign, lists and removes the binding (the CSV workflow)', async () => {
    const out = JSON.parse((await cli('seed')).stdout) as Record<string, string>;
    const { base_url } = readStackFile();
    const dir = await fetch(`${base_url}/v2/file_service/${out.account_id}/directories`, {
      method: 'POST',
      headers: { authorization: `Token token=${out.api_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `cli-bindings-${Date.now()}` }),
    });
    const directoryId = ((await dir.json()) as { data: { id: string } }).data.id;
    const ids = ['--account', out.account_id!, '--campaign', out.sms_campaign_id!, '--directory', directoryId];
    const bound = JSON.parse((await cli('bindings', 'create', ...ids, '--file-name', 'list.csv')).stdout) as Record<string, string>;
    expect(bound).toMatchObject({ campaign_id: out.sms_campaign_id, directory_id: directoryId, file_name: 'list.csv' });
    const listed = JSON.parse((await cli('bindings', 'list', '--account', out.account_id!, '--campaign', out.sms_campaign_id!)).stdout) as {
      data: unknown[];
    };
    expect(listed.data).toEqual([bound]);
    // Without --file-name the default customers.csv is meant, which is not bound: 404 naming the directory.
    const wrong = await cli('bindings', 'remove', ...ids).catch((e: { code: number; stderr: string }) => e);
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringContaining('"directory_id"') });
    expect(JSON.parse((await cli('bindings', 'remove', ...ids, '--file-name', 'list.csv')).stdout)).toEqual({
      removed: { directory_id: directoryId, file_name: 'list.csv' },
    });
    expect(JSON.parse((await cli('bindings', 'list', '--account', out.account_id!, '--campaign', out.sms_campaign_id!)).stdout)).toEqual({
      data: [],
    });
  });

  it('creates and revokes a token', async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli test')).stdout) as { id: string };
    const token = JSON.parse((await cli('tokens', 'create', '--account', account.id, '--kind', 'integration', '--name', 't')).stdout) as {
      id: string;
      token: string;
    };
    expect(token.token).toMatch(/^fbk_int_/);
    await cli('tokens', 'revoke', '--account', account.id, '--token', token.id);
    const list = JSON.parse((await cli('tokens', 'list', '--account', account.id)).stdout) as {
      data: Array<{ id: string; revoked_at: string | null }>;
    };
    expect(list.data.find((t) => t.id === token.id)?.revoked_at).toMatch(/\+00:00$/);
  });

  it('creates and lists channels', async () => {
    const account = JSON.parse((await cli('accounts', 'create', '--name', 'cli channels')).stdout) as { id: string };
    const node = JSON.parse((await cli('nodes', 'create', '--account', account.id, '--name', 'Store')).stdout) as { id: string };
    const flowFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'flow.json');
    writeFileSync(flowFile, JSON.stringify({ name: 'F', questions: [{ key: 'nps', body: { en: 'NPS?' }, style: 'nps' }] }));
    const flow = JSON.parse((await cli('flows', 'create', '--account', account.id, '--file', flowFile)).stdout) as { id: string };
    const channel = JSON.parse(
      (await cli('channels', 'create', '--account', account.id, '--name', 'web', '--node', node.id, '--flow', flow.id, '--ttl-days', '3'))
        .stdout,
    ) as Record<string, unknown>;
    expect(channel).toMatchObject({ name: 'web', node_id: node.id, flow_id: flow.id, link_ttl_days: 3 });
    const list = JSON.parse((await cli('channels', 'list', '--account', account.id)).stdout) as { data: Array<{ id: string }> };
    expect(list.data.map((c) => c.id)).toEqual([channel.id]);
    const bad = (await cli('channels', 'create', '--account', account.id, '--name', 'x', '--node', 'nope', '--flow', flow.id).catch(
      (e: unknown) => e,
    )) as { code: number; stderr: string };
    expect(bad.code).toBe(1);
    expect(apiError(bad.stderr).body).toMatchObject({ code: 13002, errors: { node_id: 'nope' } });
  });

  it('fails with the API error body and a non-zero exit for bad input', async () => {
    const err = (await cli('nodes', 'create', '--account', 'no-such-account', '--name', 'x').catch((e: unknown) => e)) as {
      code: number;
      stderr: string;
    };
    expect(err.code).toBe(1);
    const { line, body } = apiError(err.stderr);
    // What failed, its status, and the spec's code and error_message, then the body naming the culprit.
    expect(line).toBe('POST /admin/v1/accounts/no-such-account/nodes failed: 404 Not Found, code 13002: Requested resource not found!');
    expect(body).toMatchObject({ code: 13002, errors: { account_id: 'no-such-account' } });
    // A command line missing an option is a usage error: exit 2, and the command's usage.
    const usage = (await cli('tokens', 'create', '--account', 'a').catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      '--kind is required\nusage: feedbackctl tokens create --account ID --kind api|integration --name NAME (see feedbackctl help tokens create)\n',
    );
  });
});
