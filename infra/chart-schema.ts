/**
 * Keeps the Kubernetes and SMS-provider parts of the chart's values.schema.json generated, not hand-kept:
 *
 * - every `#/definitions/io.k8s.…` the schema refers to (pod and container security contexts,
 *   affinity, tolerations, env vars, NetworkPolicy peers) is copied, with what it refers to, from the
 *   strict JSON schemas of the newest Kubernetes version kubernetes-validate ships (infra/k8s-tools.sh),
 *   so a misspelt field (`readOnlyRootFilesytem`) is refused by `helm install` itself;
 * - `definitions.smsHttpProvider` is the messaging service's own zod schema of SMS_HTTP_PROVIDER
 *   as JSON Schema, so the chart refuses what the service would refuse at start-up.
 *
 *   node --import tsx infra/chart-schema.ts <schemas dir>          rewrite values.schema.json
 *   node --import tsx infra/chart-schema.ts <schemas dir> --check  exit 1 when it is not up to date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as prettier from 'prettier';
import { httpProviderJsonSchema } from '../apps/messaging/src/providers/adapters/http/http-provider.config.js';

type Json = Record<string, unknown>;

export const SCHEMA_FILE = resolve(import.meta.dirname, '../deploy/helm/feedback/values.schema.json');
const K8S_PREFIX = 'io.k8s.';

/** The definitions kubernetes-validate ships for one version (its `-local-strict` directory). */
function k8sDefinitions(schemasDir: string): Record<string, Json> {
  const file = JSON.parse(readFileSync(resolve(schemasDir, '_definitions.json'), 'utf8')) as { $defs: Record<string, Json> };
  return file.$defs;
}

/** A copy without descriptions (the file stays readable) and with refs pointing into our own definitions. */
function localise(node: unknown, refs: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => localise(n, refs));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'description') continue;
    if (key === '$ref' && typeof value === 'string') {
      const name = value.slice(value.lastIndexOf('/') + 1);
      refs.add(name);
      out.$ref = `#/definitions/${name}`;
      continue;
    }
    out[key] = localise(value, refs);
  }
  return out;
}

/** Every `#/definitions/io.k8s.…` a node refers to. */
function k8sRefsIn(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => k8sRefsIn(n, into));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(`#/definitions/${K8S_PREFIX}`))
        into.add(value.slice('#/definitions/'.length));
      else k8sRefsIn(value, into);
    }
  }
  return into;
}

/** values.schema.json as it should be: the hand-written part as it is, the generated part fresh. */
export function generatedSchema(current: Json, schemasDir: string): Json {
  const defs = k8sDefinitions(schemasDir);
  const handWritten: Json = { ...current, definitions: {} };
  for (const [name, def] of Object.entries((current.definitions ?? {}) as Record<string, Json>)) {
    if (!name.startsWith(K8S_PREFIX) && name !== 'smsHttpProvider') (handWritten.definitions as Json)[name] = def;
  }
  const generated: Record<string, unknown> = {};
  const pending = [...k8sRefsIn(handWritten, new Set())];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in generated) continue;
    const def = defs[name];
    if (!def) throw new Error(`Kubernetes has no definition ${name}`);
    const refs = new Set<string>();
    generated[name] = localise(def, refs);
    pending.push(...refs);
  }
  const { $schema: _ignored, ...provider } = httpProviderJsonSchema() as Json;
  const definitions: Json = { ...(handWritten.definitions as Json), smsHttpProvider: provider };
  for (const name of Object.keys(generated).sort()) definitions[name] = generated[name];
  return { ...handWritten, definitions };
}

/** As the repository formats JSON (prettier), so a regenerated file passes the format check. */
async function serialise(schema: Json): Promise<string> {
  const options = (await prettier.resolveConfig(SCHEMA_FILE)) ?? {};
  return prettier.format(JSON.stringify(schema), { ...options, parser: 'json' });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [schemasDir, mode] = process.argv.slice(2);
  if (!schemasDir) throw new Error('usage: chart-schema.ts <kubernetes-validate strict schemas dir> [--check]');
  const before = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Json;
  const after = generatedSchema(before, schemasDir);
  if (mode === '--check') {
    // The same content, whatever the order of keys (a hand-written definition may come after the generated ones).
    if (!isDeepStrictEqual(before, after)) {
      console.error('deploy/helm/feedback/values.schema.json is not up to date: run infra/k8s-tools.sh schema');
      process.exit(1);
    }
  } else writeFileSync(SCHEMA_FILE, await serialise(after));
}
