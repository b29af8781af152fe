// Generates packages/proto/src/gen from proto/ with buf + ts-proto, offline.
// `--check` regenerates into a temporary folder and fails when the committed code differs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const committed = join(root, 'packages/proto/src/gen');
const check = process.argv.includes('--check');
const buf = join(root, 'node_modules/.bin/buf');

function generate(outDir) {
  const template = readFileSync(join(root, 'proto/buf.gen.yaml'), 'utf8')
    .replace(/out: .*/, `out: ${outDir}`)
    .replace(/local: \.\.\/node_modules/, `local: ${join(root, 'node_modules')}`);
  const tmpl = join(tmpdir(), `buf-gen-${process.pid}.yaml`);
  writeFileSync(tmpl, template);
  try {
    execFileSync(buf, ['generate', '--template', tmpl], { cwd: join(root, 'proto'), stdio: 'inherit' });
  } finally {
    rmSync(tmpl, { force: true });
  }
}

function listFiles(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, base) : [relative(base, full)];
  });
}

if (!check) {
  rmSync(committed, { recursive: true, force: true });
  generate(committed);
  console.log(`proto: generated ${listFiles(committed).length} files into packages/proto/src/gen`);
} else {
  const fresh = mkdtempSync(join(tmpdir(), 'proto-check-'));
  try {
    generate(fresh);
    const want = listFiles(fresh).sort();
    let have = [];
    try {
      have = listFiles(committed).sort();
    } catch {
      /* missing folder is stale */
    }
    const stale = [...new Set([...want, ...have])].filter((f) => {
      try {
        return readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8');
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(`proto: generated code is stale; run \`pnpm proto:gen\` and commit:\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    console.log('proto: generated code is up to date');
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}
