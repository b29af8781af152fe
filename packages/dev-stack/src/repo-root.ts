import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * A file of this checkout (`infra/mongo.sh`, `proto/feedback`) by its path from the repository
 * root, which is found from the current folder upwards (the folder holding pnpm-workspace.yaml):
 * tests name the infra scripts without counting `../` from where they happen to sit.
 */
export function repoPath(path: string, from = process.cwd()): string {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`repoPath: no pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
  return join(dir, path);
}
