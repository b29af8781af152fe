import { errors } from '@feedback/kit-core';
import { normalizeDirectoryName, type Directory } from './directory.js';
import { isId, normalizeId } from './ids.js';
import type { FileServiceDeps } from './ports.js';

type Deps = Pick<FileServiceDeps, 'directories' | 'clock' | 'newId'>;

export async function createDirectory(deps: Deps, accountId: string, rawName: string): Promise<Directory> {
  const directory: Directory = { id: deps.newId(), accountId, name: normalizeDirectoryName(rawName), createdAt: deps.clock.now() };
  const outcome = await deps.directories.insert(directory);
  if (outcome === 'duplicate') throw errors.conflict({ name: 'a directory of this name already exists' });
  return directory;
}

export const listDirectories = (deps: Pick<Deps, 'directories'>, accountId: string) => deps.directories.list(accountId);

/** Unknown, malformed and other accounts' directory ids all answer the same not-found. */
export async function requireDirectory(deps: Pick<Deps, 'directories'>, accountId: string, directoryId: string): Promise<Directory> {
  const directory = isId(directoryId) ? await deps.directories.findById(accountId, normalizeId(directoryId)) : null;
  if (!directory) throw errors.notFound('directory_id', directoryId);
  return directory;
}
