// The files of a tree the repository's checks read (check-references, check-test-names).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SKIPPED_DIRS = new Set(['node_modules', '.git', '.local', 'dist', '.turbo']);

/** git's files (tracked and untracked, not ignored) when ROOT is a repository's top, else a walk of ROOT. */
export function listFiles(root) {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (resolve(execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8' }).trim()) === resolve(root))
      return [...new Set(out.split('\0'))].filter((f) => f && existsSync(join(root, f)));
  } catch {
    // not a repository: walk it
  }
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(rel);
      } else if (e.isFile()) files.push(rel);
    }
  };
  walk('');
  return files;
}
