import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/errors.md is the list of public 13xxx codes a client can get: each code the source gives
// out (kit-core's ERROR_TABLE and the few a route sets itself) is there, and the list names no
// code nothing gives.

const REPO = resolve(import.meta.dirname, '../..');
const CODE = /\b13\d{3}\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

const codesIn = (text: string) => new Set(text.match(CODE) ?? []);

describe('docs/errors.md and the codes of the source', () => {
  const sources = [...readdirSync(join(REPO, 'apps')).map((a) => `apps/${a}/src`), 'packages/kit-core/src']
    .filter((d) => {
      try {
        return readdirSync(join(REPO, d)).length > 0;
      } catch {
        return false;
      }
    })
    .flatMap(sourceFiles);
  const inSource = new Set(sources.flatMap((f) => [...codesIn(readFileSync(f, 'utf8'))]));
  // The codes of the table's rows: `| status | code | …`.
  const table = new Set(
    [...readFileSync(join(REPO, 'docs/errors.md'), 'utf8').matchAll(/^\|\s*\d{3}\s*\|\s*(13\d{3})\s*\|/gm)].map((m) => m[1]!),
  );

  it('every code the source gives is in the table', () => {
    expect(inSource.size).toBeGreaterThan(10);
    expect(table.size).toBeGreaterThan(10);
    expect([...inSource].filter((c) => !table.has(c)).sort()).toEqual([]);
  });

  it('every code of the table is given by the source', () => {
    expect([...table].filter((c) => !inSource.has(c)).sort()).toEqual([]);
  });
});
