import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// An operator configures an app from its README: every variable its src/env.ts reads must be named
// there (or, for the variables a shared package adds to every app, in that package's README), and a
// variable the README's Configuration table names must be one the app reads.

const REPO = resolve(import.meta.dirname, '../..');
// messaging's README is organised by feature and carries its own settings section by section.
const APPS = ['file', 'flow', 'gateway', 'shortener', 'survey', 'webhooks'];
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const PACKAGE_READMES = ['kit-core', 'kit-grpc', 'kit-kafka', 'kit-limits', 'kit-metrics', 'kit-stores'].map((p) =>
  read(`packages/${p}/README.md`),
);

/** The variables an app's loadEnv reads: it is called on an environment that records each name asked for. */
async function settingsOf(app: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const record = (name: string | symbol) => typeof name === 'string' && seen.add(name);
  const vars = new Proxy({} as Record<string, string | undefined>, {
    get: (_t, name) => (record(name), undefined),
    has: (_t, name) => (record(name), false),
  });
  const { loadEnv } = (await import(join(REPO, `apps/${app}/src/env.ts`))) as {
    loadEnv: (v: Record<string, string | undefined>) => unknown;
  };
  try {
    loadEnv(vars);
  } catch {
    // required variables are missing here: every variable was still read (the config error lists them all)
  }
  return seen;
}

const names = (text: string) => new Set(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? []);

/** The variable names of the first column of a README's "## Configuration" table. */
function configurationTable(readme: string): string[] {
  const section = /^## Configuration\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

describe.each(APPS)('apps/%s: settings and README', (app) => {
  const readme = read(`apps/${app}/README.md`);

  it('names every variable src/env.ts reads', async () => {
    const settings = await settingsOf(app);
    expect(settings.size).toBeGreaterThan(5);
    const documented = new Set([...names(readme), ...PACKAGE_READMES.flatMap((r) => [...names(r)])]);
    expect([...settings].filter((s) => !documented.has(s)).sort()).toEqual([]);
  });

  it('has a Configuration table whose every variable the app reads', async () => {
    const table = configurationTable(readme);
    expect(table.length).toBeGreaterThan(3);
    const settings = await settingsOf(app);
    expect(table.filter((s) => !settings.has(s))).toEqual([]);
  });
});
