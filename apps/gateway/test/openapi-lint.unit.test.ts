import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiListeners, servedDocument } from './openapi-fixture.js';

/**
 * Both served documents under Redocly's recommended rules and Spectral's spectral:oas ruleset
 * (the configuration and its reasoned exceptions are in test/openapi-lint/): no error and no
 * warning. Client generators read these documents; what the linters flag is what trips them.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, 'openapi-lint');
const BIN = join(HERE, '..', 'node_modules', '.bin');
/** File name → what it is; the exceptions in .redocly.lint-ignore.yaml are keyed by these names. */
const DOCUMENTS = { 'api.json': 'API listener', 'links.json': 'link listener' } as const;
type DocumentName = keyof typeof DOCUMENTS;

type Problem = { document: string; rule: string; severity: 'error' | 'warning' | 'other'; where: string; message: string };

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(join(BIN, command), args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Redocly prints one JSON report per document, one after the other. */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}

async function redocly(dir: string, names: DocumentName[]): Promise<Problem[]> {
  const out = await run('redocly', ['lint', ...names, '--config', 'redocly.yaml', '--format', 'json'], dir);
  const reports = jsonValues(out.stdout) as Array<{
    problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
  }>;
  if (reports.length !== names.length)
    throw new Error(`redocly answered ${reports.length} reports for ${names.length} documents:\n${out.stderr}`);
  return reports.flatMap((report, i) =>
    report.problems.map((p) => ({
      document: names[i]!,
      rule: p.ruleId,
      severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'other',
      where: p.location[0]?.pointer ?? '',
      message: p.message,
    })),
  );
}

async function spectral(dir: string, names: DocumentName[]): Promise<Problem[]> {
  // Exit code 1 when there are errors: the report on stdout says which.
  const out = await run('spectral', ['lint', ...names, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'], dir);
  let results: Array<{ code: string; severity: number; message: string; path: string[]; source: string }>;
  try {
    results = JSON.parse(out.stdout);
  } catch {
    throw new Error(`spectral exited ${out.code} without a report:\n${out.stdout}\n${out.stderr}`);
  }
  return results.map((r) => ({
    document: names.find((n) => r.source.endsWith(n)) ?? r.source,
    rule: r.code,
    severity: r.severity === 0 ? 'error' : r.severity === 1 ? 'warning' : 'other',
    where: r.path.join('.'),
    message: r.message,
  }));
}

describe('the OpenAPI documents under Redocly and Spectral', () => {
  let dir: string;
  const names = Object.keys(DOCUMENTS) as DocumentName[];

  beforeAll(async () => {
    // As the running gateway serves them with its default public URLs (env.ts).
    const listeners = await openApiListeners({ publicUrl: 'http://127.0.0.1:8080', shortenerUrl: 'http://127.0.0.1:8081' });
    try {
      dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
      writeFileSync(join(dir, 'api.json'), JSON.stringify(await servedDocument(listeners.api), null, 2));
      writeFileSync(join(dir, 'links.json'), JSON.stringify(await servedDocument(listeners.link), null, 2));
    } finally {
      await listeners.close();
    }
    for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml', '.spectral.yaml']) copyFileSync(join(CONFIG, file), join(dir, file));
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has no error and no warning in either document', async () => {
    const [byRedocly, bySpectral] = await Promise.all([redocly(dir, names), spectral(dir, names)]);
    const count = (problems: Problem[], name: string, severity: Problem['severity']) =>
      problems.filter((p) => p.document === name && p.severity === severity).length;
    for (const name of names) {
      console.log(
        `${name} (${DOCUMENTS[name]}): redocly: ${count(byRedocly, name, 'error')} errors, ${count(byRedocly, name, 'warning')} warnings; ` +
          `spectral: ${count(bySpectral, name, 'error')} errors, ${count(bySpectral, name, 'warning')} warnings`,
      );
    }
    const blocking = [...byRedocly.map((p) => ({ ...p, by: 'redocly' })), ...bySpectral.map((p) => ({ ...p, by: 'spectral' }))]
      .filter((p) => p.severity !== 'other')
      .map((p) => `${p.by} ${p.severity} ${p.rule} in ${p.document} at ${p.where}: ${p.message}`);
    expect(blocking).toEqual([]);
  }, 120_000);
});
