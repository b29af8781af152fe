import { readFileSync } from 'node:fs';
import { UsageError } from '../cli-errors.js';

/** A JSON file named on the command line (- is stdin); a parse error names the file only, since the text may hold credentials. */
export function readJsonFile(file: string): Record<string, unknown> {
  const name = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${name}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new UsageError(`${name} is not valid JSON`);
  }
}

export function ttlDays(ttl: string | undefined): { link_ttl_days?: number } {
  if (ttl !== undefined && !/^\d+$/.test(ttl)) throw new UsageError('--ttl-days must be a whole number of days');
  return ttl ? { link_ttl_days: Number(ttl) } : {};
}

/** A password from a file (- is stdin), its final newline dropped: never on the command line, where ps and shell history keep it. */
export function readPasswordFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    const name = file === '-' ? 'stdin' : file;
    throw new UsageError(
      `cannot read ${name}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
}
