import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// An operator configures an app from its README: every variable its src/env.ts reads must be named
// there (or, for the variables a shared package adds to every app, in that package's README), and a
// variable the README's Configuration table names must be one the app reads. Every README has the
// same sections to look in, names each RPC of its service and each topic it reads or writes.

const REPO = resolve(import.meta.dirname, '../..');
const APPS = ['file', 'flow', 'gateway', 'messaging', 'shortener', 'survey', 'webhooks'];
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

/** The RPCs of an app's own gRPC service (proto/feedback/<app>/v1); none for the gateway. */
function rpcsOf(app: string): string[] {
  let dir: string[];
  try {
    dir = readdirSync(join(REPO, `proto/feedback/${app}/v1`));
  } catch {
    return [];
  }
  return dir
    .filter((f) => f.endsWith('.proto'))
    .flatMap((f) => [...read(`proto/feedback/${app}/v1/${f}`).matchAll(/^\s*rpc (\w+)\(/gm)].map((m) => m[1]!));
}

/** The default names of the topics an app's src/env.ts reads (`*_TOPIC: env.string('…')`). */
const topicsOf = (app: string) => [...read(`apps/${app}/src/env.ts`).matchAll(/_TOPIC: env\.string\('([^']+)'\)/g)].map((m) => m[1]!);

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

  it('has the sections every app README has, and names its RPCs and topics', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings).toEqual(expect.arrayContaining(['Configuration', 'Tests']));
    expect(headings.some((h) => /^(RPCs|Where each route lives)$/.test(h))).toBe(true);
    const rpcs = rpcsOf(app);
    if (app !== 'gateway') expect(rpcs.length).toBeGreaterThan(1);
    expect(rpcs.filter((r) => !new RegExp(`\\b${r}\\b`).test(readme))).toEqual([]);
    expect(topicsOf(app).filter((t) => !readme.includes(`\`${t}\``))).toEqual([]);
  });
});

describe("docs/architecture.md's Kafka table", () => {
  const table = new Set([...read('docs/architecture.md').matchAll(/^\| `([a-z.]+)` \|/gm)].map((m) => m[1]!));
  const used = new Set(APPS.flatMap(topicsOf));

  it('lists every topic an app reads or writes, and only those', () => {
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((t) => !table.has(t)).sort()).toEqual([]);
    // messaging's priority lane has no default of its own: its dispatch topic's name + `.priority`.
    expect([...table].filter((t) => !used.has(t) && !t.endsWith('.priority')).sort()).toEqual([]);
  });
});
