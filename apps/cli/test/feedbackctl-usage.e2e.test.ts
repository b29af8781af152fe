import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliWith, failure } from './run-cli.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** A port nothing listens on: bound by us, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// feedbackctl's command line as people expect it: version, help, and what a mistake prints.
describe('feedbackctl usage', () => {
  it('prints its version (package.json) and the list of commands', async () => {
    expect(await cli('--version')).toMatchObject({ stdout: `${pkg.version}\n`, stderr: '' });
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const { stdout } = await cli(...args);
      expect(stdout).toMatch(/^feedbackctl: the admin API from the command line\n/);
      for (const line of [
        '  accounts create --name NAME',
        '  domains add --account ID --domain DOMAIN',
        '  sms-messages list --account ID [--phone PHONE] [--page-size N] [--page-token TOKEN]',
        '  responses list --account ID [--flow FLOW_ID] [--channel CHANNEL_ID] [--since DATE] [--until DATE] [--customer EXTERNAL_ID] [--page-size N] [--page-token TOKEN]',
        '  responses nps --account ID --flow FLOW_ID [--channel CHANNEL_ID] [--since DATE] [--until DATE]',
        '  links show --code CODE',
        '  seed',
      ]) {
        expect(stdout.split('\n')).toContain(line);
      }
      expect(stdout).toMatch(/^ {2}--version +feedbackctl's version$/m);
    }
  });

  it("prints a command's usage, options and an example for help COMMAND and COMMAND --help alike", async () => {
    const help = (await cli('help', 'channels', 'create')).stdout;
    expect(help).toBe((await cli('channels', 'create', '--help')).stdout);
    expect(help).toBe((await cli('channels', 'create', '-h')).stdout);
    const lines = help.split('\n');
    expect(lines[0]).toBe('usage: feedbackctl channels create --account ID --name NAME --node NODE_ID --flow FLOW_ID [--ttl-days DAYS]');
    expect(lines).toContain('options:');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}--ttl-days DAYS +how long a link made on it stays valid, in whole days \(optional\)$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}--url BASE_URL +the gateway's API listener/));
    expect(lines.slice(-3)).toEqual([
      'example:',
      '  feedbackctl channels create --account ACCOUNT_ID --name web --node NODE_ID --flow FLOW_ID --ttl-days 7',
      '',
    ]);
    // A group alone lists its actions.
    const group = (await cli('help', 'domains')).stdout.split('\n');
    expect(group.filter((l) => l.startsWith('usage: '))).toEqual([
      'usage: feedbackctl domains list --account ID',
      'usage: feedbackctl domains add --account ID --domain DOMAIN',
      'usage: feedbackctl domains remove --account ID --domain DOMAIN',
    ]);
  });

  it('refuses an unknown command or option, or a missing value, with one line naming it, the usage hint and exit code 2', async () => {
    const cases: Array<[string[], string, string]> = [
      [['frobnicate'], 'unknown command "frobnicate"', 'usage: feedbackctl COMMAND [options] (see feedbackctl --help)'],
      [['help', 'tokens', 'burn'], 'unknown command "tokens burn"', 'usage: feedbackctl COMMAND [options] (see feedbackctl --help)'],
      [
        ['tokens', 'list', '--account', 'a', '--colour', 'red'],
        'unknown option --colour',
        'usage: feedbackctl tokens list --account ID (see feedbackctl help tokens list)',
      ],
      // An option another command takes is still unknown to this one.
      [
        ['accounts', 'create', '--name', 'x', '--kind', 'api'],
        'unknown option --kind for "accounts create"',
        'usage: feedbackctl accounts create --name NAME (see feedbackctl help accounts create)',
      ],
      [['links', 'show', '--code'], '--code needs a value', 'usage: feedbackctl links show --code CODE (see feedbackctl help links show)'],
      [['links', 'show'], '--code is required', 'usage: feedbackctl links show --code CODE (see feedbackctl help links show)'],
    ];
    for (const [args, message, hint] of cases) {
      const failed = await failure(cli(...args));
      expect({ args, code: failed.code, stdout: failed.stdout, stderr: failed.stderr }).toEqual({
        args,
        code: 2,
        stdout: '',
        stderr: `${message}\n${hint}\n`,
      });
    }
    // A group without its action names the actions.
    const bare = await failure(cli('tokens'));
    expect(bare.code).toBe(2);
    expect(bare.stderr.split('\n')[0]).toBe('"tokens" needs an action: create, list, revoke');
  });

  it('says which API it cannot reach and why, and what to check, with exit code 1', async () => {
    const port = await closedPort();
    const viaFlag = await failure(cli('accounts', 'create', '--name', 'x', '--url', `http://127.0.0.1:${port}`, '--admin-token', 't'));
    expect(viaFlag).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `cannot reach the API at http://127.0.0.1:${port} (connection refused): is the gateway up there? (check --url)\n`,
    });
    const viaEnv = await failure(
      cliWith({ FEEDBACK_BASE_URL: 'http://no-such-host.invalid:8080', FEEDBACK_ADMIN_TOKEN: 't' }, 'tokens', 'list', '--account', 'a'),
    );
    expect(viaEnv).toMatchObject({
      code: 1,
      stderr:
        'cannot reach the API at http://no-such-host.invalid:8080 (host not found): is the gateway up there? (check FEEDBACK_BASE_URL)\n',
    });
    // The local stack's file names a gateway that is not up: the hint is ./stack up. Seed stops at its first step.
    const stackFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'stack.json');
    writeFileSync(stackFile, JSON.stringify({ base_url: `http://127.0.0.1:${port}`, admin_token: 't' }));
    const viaStack = await failure(cliWith({ FEEDBACK_STACK_FILE: stackFile, FEEDBACK_BASE_URL: '', FEEDBACK_ADMIN_TOKEN: '' }, 'seed'));
    expect(viaStack).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `cannot reach the API at http://127.0.0.1:${port} (connection refused): is the stack up? (./stack up)\n`,
    });
  });
});
