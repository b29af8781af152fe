// Moves the contract baseline (proto/released.binpb) that `pnpm proto:breaking` compares with.
// Run it when a version is released or deployed everywhere, and commit the file; a deliberate
// break is accepted the same way, once no running peer needs the old shape. It prints the
// breaks it accepts, so the commit that moves the baseline can say so.
//
// Usage: node scripts/proto-baseline.mjs [--ref <git ref>]
//   --ref  record proto/ as committed at that ref (a release tag, say) instead of the working tree
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const buf = join(root, 'node_modules/.bin/buf');
const target = join(root, 'proto/released.binpb');
const i = process.argv.indexOf('--ref');
const ref = i < 0 ? undefined : process.argv[i + 1];
if (i >= 0 && !ref) throw new Error('--ref needs a git ref');

const tmp = mkdtempSync(join(tmpdir(), 'proto-baseline-'));
try {
  let source = '.';
  if (ref) {
    const tar = execFileSync('git', ['archive', '--format=tar', ref, '--', '.'], {
      cwd: join(root, 'proto'),
      maxBuffer: 64 * 1024 * 1024,
    });
    source = join(tmp, 'ref.tar');
    writeFileSync(source, tar);
    source += '#format=tar';
  }
  // Without source info: comments and line moves leave the file as it is; only contracts move it.
  const image = join(tmp, 'released.binpb');
  execFileSync(buf, ['build', source, '--exclude-source-info', '-o', image], { cwd: join(root, 'proto'), stdio: 'inherit' });
  if (existsSync(target)) {
    try {
      execFileSync(buf, ['breaking', image, '--against', target, '--config', 'buf.yaml'], {
        cwd: join(root, 'proto'),
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      const out = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim();
      console.log(`proto: the new baseline accepts these breaks of the old one:\n${out.replace(/^/gm, '  ')}`);
    }
  }
  copyFileSync(image, target);
  console.log(`proto: baseline recorded from ${ref ? `${ref}:proto` : 'the working tree'} into proto/released.binpb; commit it`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
