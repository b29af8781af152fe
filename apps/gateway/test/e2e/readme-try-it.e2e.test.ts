import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// README.md's "Try it" is what a newcomer pastes first: its shell blocks run here as written, in
// order, in one bash, against the running stack. Each block must exit 0 (bash -e; curl fails on an
// HTTP error status through a curlrc), and the outputs a reader looks for must be there.

const REPO = resolve(import.meta.dirname, '../../../..');
const MARK = '@@try-it';

/** The ```sh blocks of README.md's "## Try it" section, in order. */
function tryItBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## Try it\n');
  if (start < 0) throw new Error('README.md has no "## Try it" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Runs the blocks in one bash in DIR; the output of each block, up to the first that failed. */
async function runBlocks(
  dir: string,
  blocks: string[],
): Promise<{ outputs: string[]; vars: Record<string, string>; all: string; rc: number | null }> {
  const script = [
    'set -e',
    // The receiver of the webhook block runs in the background: never leave it behind.
    "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
    ...blocks.flatMap((b, i) => [b, `echo "${MARK} ${i} ok"`]),
    `echo "${MARK} vars CODE=$CODE DIRECTORY_ID=$DIRECTORY_ID SHARING_ID=$SHARING_ID LATER_ID=$LATER_ID ENDPOINT_ID=$ENDPOINT_ID"`,
  ].join('\n');
  writeFileSync(join(dir, 'try-it.sh'), script);
  // Every curl of the README fails on an HTTP error status, as `set -e` needs, and says why (`-s` would hide it).
  writeFileSync(join(dir, '.curlrc'), 'fail-with-body\nshow-error\n');
  const child = spawn('bash', ['try-it.sh'], { cwd: dir, env: { ...process.env, CURL_HOME: dir }, detached: true });
  let all = '';
  child.stdout.on('data', (d: Buffer) => (all += d.toString()));
  child.stderr.on('data', (d: Buffer) => (all += d.toString()));
  // A block that hangs (the receiver never called) must not hang the run: the whole group goes.
  const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 150_000);
  const rc = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(guard);
  const outputs: string[] = [];
  let rest = all;
  for (let i = 0; i < blocks.length; i++) {
    const at = rest.indexOf(`${MARK} ${i} ok\n`);
    if (at < 0) break;
    outputs.push(rest.slice(0, at));
    rest = rest.slice(at + `${MARK} ${i} ok\n`.length);
  }
  const vars = Object.fromEntries([...(/^@@try-it vars (.*)$/m.exec(all)?.[1] ?? '').matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1]!, m[2]!]));
  return { outputs, vars, all, rc };
}

describe("README.md's Try it, run as written against the running stack", () => {
  const dir = mkdtempSync(join(tmpdir(), 'try-it-'));
  // The README runs at the repository's root: `./stack` and `.local/stack.json` as there, the
  // files it writes (demo.json, customers.csv, answers.csv) here instead of in the tree.
  writeFileSync(join(dir, 'stack'), `#!/bin/sh\nexec '${REPO}/stack' "$@"\n`, { mode: 0o755 });
  symlinkSync(join(REPO, '.local'), join(dir, '.local'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every block exits 0 and shows what the text says it shows', { timeout: 180_000 }, async () => {
    const blocks = tryItBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const run = await runBlocks(dir, blocks);
    expect(run.outputs.length, `block ${run.outputs.length + 1} of ${blocks.length} failed:\n${run.all.slice(-3000)}`).toBe(blocks.length);
    expect(run.rc, run.all.slice(-3000)).toBe(0);
    const [seed, links, files, sms, results] = run.outputs;

    // The seed: a demo account whose ids the later blocks used.
    const demo = JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8')) as Record<string, string>;
    expect(demo).toMatchObject({ account_id: expect.any(String), api_token: expect.any(String), sms_campaign_id: expect.any(String) });
    expect(seed).not.toMatch(/undefined/);

    // The flow's questions, then the short link's redirect to the full URL.
    expect(links).toContain('How likely are you to recommend us to a friend?');
    expect(run.vars.CODE).toMatch(/^[\w-]+$/);
    expect(links).toMatch(/HTTP\/1\.1 302 /);
    expect(links).toMatch(/^location: https:\/\/example\.com\/survey\?id=1\r?$/im);

    // The CSV workflow: the uploaded file served back, its two rows' SMS in one sharing of the campaign.
    expect(run.vars.DIRECTORY_ID).toMatch(/\S/);
    expect(existsSync(join(dir, 'customers.csv'))).toBe(true);
    expect(files).toContain('phone,name\n+905321234567,Ayşe\n+905321234568,Can\n');
    expect(files).toContain('Merhaba Ayşe');
    expect(run.vars.SHARING_ID).toMatch(/\S/);
    expect(files).toContain(`"id":"${run.vars.SHARING_ID}"`);
    expect(files).toContain('"accepted":2');
    expect(files).toContain(`"campaign_id":"${demo.sms_campaign_id}"`);

    // A later sharing made and cancelled; the preview renders the template.
    expect(run.vars.LATER_ID).toMatch(/\S/);
    expect(sms).toContain('Merhaba Ayşe');

    // The receiver got the test webhook, and the delivery log lists it.
    expect(run.vars.ENDPOINT_ID).toMatch(/\S/);
    expect(results).toMatch(/"type":"webhook\.test"/);
    expect(results).toContain('webhook.test');
    expect(existsSync(join(dir, 'answers.csv'))).toBe(true);
  });
});
