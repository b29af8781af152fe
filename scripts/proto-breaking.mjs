// Fails when proto/ changed a contract in a way that breaks a peer that still runs the other
// version: the gRPC services and the Kafka event payloads (all protobuf binary). The rules are
// proto/buf.yaml's `breaking` section; why those rules: docs/decisions.md "Compatible contracts
// and documents".
//
// Two comparisons:
// - against the recorded baseline, proto/released.binpb (what is deployed or released; moved
//   forward on purpose with `pnpm proto:baseline`), always;
// - against HEAD, when proto/ is in a git checkout and differs from HEAD: a developer sees a
//   break before committing it, even one the baseline cannot see yet (a field added since the
//   baseline and then renumbered).
//
// Usage: node scripts/proto-breaking.mjs [--proto <dir>] [--against <image>]
//   --proto    the module to check (default: proto/ of this repository)
//   --against  the baseline image (default: <proto dir>/released.binpb)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const buf = join(root, 'node_modules/.bin/buf');

function option(name) {
  const i = process.argv.indexOf(name);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

const protoDir = resolve(option('--proto') ?? join(root, 'proto'));
const baseline = resolve(option('--against') ?? join(protoDir, 'released.binpb'));

/** Runs `buf breaking` on protoDir against `against`; prints buf's findings; true when none. */
function compare(against, label) {
  try {
    execFileSync(buf, ['breaking', '.', '--against', against], { cwd: protoDir, encoding: 'utf8', stdio: 'pipe' });
    console.log(`proto: no breaking change against ${label}`);
    return true;
  } catch (err) {
    const out = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim();
    console.error(`proto: breaking change against ${label}:\n${out.replace(/^/gm, '  ')}`);
    return false;
  }
}

/** `git …` in protoDir; undefined when git fails (not a checkout, no HEAD yet). */
function git(args, opts = {}) {
  try {
    return execFileSync('git', args, { cwd: protoDir, stdio: ['ignore', 'pipe', 'ignore'], ...opts });
  } catch {
    return undefined;
  }
}

/**
 * proto/ as committed at HEAD, as a tar buffer (paths relative to protoDir) buf reads with
 * `#format=tar`; undefined when protoDir is not in a git checkout, has no uncommitted change,
 * or HEAD has no buf.yaml there. `git archive` rather than buf's `.git#ref=HEAD` input: no
 * clone, and it works in a worktree too.
 */
function headArchive() {
  const changed = git(['status', '--porcelain', '--untracked-files=all', '--', '.'], { encoding: 'utf8' });
  if (!changed?.trim()) return undefined;
  if (git(['cat-file', '-e', 'HEAD:./buf.yaml']) === undefined) return undefined;
  return git(['archive', '--format=tar', 'HEAD', '--', '.'], { maxBuffer: 64 * 1024 * 1024 });
}

if (!existsSync(baseline)) {
  console.error(`proto: no baseline at ${baseline}; record one with \`pnpm proto:baseline\``);
  process.exit(1);
}
const shown = relative(root, baseline).startsWith('..') ? baseline : relative(root, baseline);
let ok = compare(baseline, `the released baseline (${shown})`);
const head = headArchive();
if (head) {
  const dir = mkdtempSync(join(tmpdir(), 'proto-head-'));
  try {
    const file = join(dir, 'head.tar');
    writeFileSync(file, head);
    ok = compare(`${file}#format=tar`, 'HEAD (uncommitted changes in proto/)') && ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (!ok) {
  console.error(
    'proto: a peer still running the other version would misread or fail these calls or events.\n' +
      '  Add instead of change: a new field number, a new RPC, a new message (docs/decisions.md\n' +
      '  "Compatible contracts and documents"). A deliberate break, once no deployed peer needs the\n' +
      '  old shape: `pnpm proto:baseline`, committed with the change.',
  );
  process.exit(1);
}
