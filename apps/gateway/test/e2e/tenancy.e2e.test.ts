import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS, stackClient } from './stack-client.js';
import { populatedAccount, type TenantFixture } from './tenant-fixture.js';

/**
 * The tenancy matrix, generated from the API listener's own OpenAPI document at run time
 * (docs/reliability.md): every operation that takes an id in its path is called with account
 * A's real ids by every identity that must not reach them: account B's token of the operation's
 * own kind, each token kind the operation does not accept, and no token. Each answer must be
 * 401, 403 or 404 in the error shape (401 without a credential for the route, 403 for A's token
 * of a kind it does not take) and hold none of A's names or ids (other than the ids the
 * caller put in the path itself). A new route is covered without editing this file; a path
 * parameter the fixture has no id for fails the first test.
 */

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: Schema }> };
};
type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; example?: unknown; examples?: unknown[] };
type Identity = { name: string; kind: Kind; headers: Record<string, string> };
type Kind = 'apiToken' | 'integrationToken' | 'adminToken' | 'none';

const api = stackClient();
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const doc = (await (await fetch(`${api.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m]!, params: pathParams(path) })),
);
const withIds = operations.filter((o) => o.params.length > 0);

function pathParams(path: string) {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** The token kinds an operation accepts (its security requirements); none: a public route. */
function kindsOf(op: Operation): Kind[] {
  return [...new Set((op.security ?? []).flatMap((req) => Object.keys(req)))] as Kind[];
}

/** A valid body when the document shows one: the route's own example, else a minimal object. */
function bodyOf(op: Operation): { headers: Record<string, string>; body?: string | FormData } {
  const content = op.requestBody?.content ?? {};
  if (content['application/json']) {
    const media = content['application/json'];
    const example = media.example ?? media.schema?.example ?? media.schema?.examples?.[0] ?? minimal(media.schema);
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(example) };
  }
  if (content['multipart/form-data']) {
    const form = new FormData();
    form.append('filename', 'tenancy.csv');
    form.append('file', new Blob(['phone\n+905321234567\n']), 'tenancy.csv');
    return { headers: {}, body: form };
  }
  if (content['application/x-www-form-urlencoded']) return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' };
  return { headers: {} };
}

function minimal(schema: Schema | undefined): unknown {
  if (!schema) return {};
  if (schema.type === 'object') return Object.fromEntries((schema.required ?? []).map((k) => [k, minimal(schema.properties?.[k])]));
  if (schema.type === 'array') return [];
  if (schema.type === 'string') return 'x';
  if (schema.type === 'number' || schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return false;
  return {};
}

function urlFor(path: string, ids: Record<string, string>) {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name]!));
}

async function call(method: string, path: string, op: Operation, who: Identity) {
  const { headers, body } = bodyOf(op);
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { ...headers, ...who.headers },
    body: method === 'GET' ? undefined : body,
  });
  return { status: res.status, text: await res.text() };
}

let A: TenantFixture;
let B: TenantFixture;
let identities: Identity[];

beforeAll(async () => {
  [A, B] = await Promise.all([populatedAccount('tenancy-A'), populatedAccount('tenancy-B')]);
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  identities = [
    { name: 'no token', kind: 'none', headers: {} },
    { name: "A's API token", kind: 'apiToken', headers: bearer(A.apiToken) },
    { name: "A's integration token", kind: 'integrationToken', headers: bearer(A.integrationToken) },
    { name: 'the admin token', kind: 'adminToken', headers: bearer(api.adminToken) },
  ];
}, 120_000);

describe('tenancy matrix over /openapi.json', () => {
  it('knows an id for every path parameter of the document (add new ones to tenant-fixture.ts)', { timeout: 120_000 }, async () => {
    const a = await populatedAccount('tenancy-names');
    const unknown = withIds.flatMap((o) => o.params.filter((p) => !(p in a.ids)).map((p) => `${o.method} ${o.path}: {${p}}`));
    expect(unknown, 'path parameters with no id in the tenant fixture').toEqual([]);
    // Every operation of the document declares who may call it (a route without is public).
    expect(operations.length).toBeGreaterThan(20);
  });

  // The admin routes without an id (operators, the deployment's SMS limits...): no account token reaches them.
  it.each(
    operations
      .filter((o) => o.params.length === 0 && kindsOf(o.op).includes('adminToken'))
      .map((o) => [`${o.method} ${o.path}`, o] as const),
  )('%s: an admin route without ids refuses every account token and no token (401)', { timeout: 30_000 }, async (_, o) => {
    for (const who of identities.filter((i) => i.kind !== 'adminToken')) {
      const res = await call(o.method, o.path, o.op, who);
      const what = `${o.method} ${o.path} as ${who.name} → ${res.status} ${res.text.slice(0, 300)}`;
      expect(res.status, what).toBe(401);
      expect(Object.keys(JSON.parse(res.text) as object).sort(), what).toEqual(ERROR_KEYS);
    }
  });

  it.each(withIds.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s: refused to every other identity, without data',
    { timeout: 60_000 },
    async (_, o) => {
      const kinds = kindsOf(o.op);
      if (kinds.length === 0) {
        // A public route: the id in the path is itself the capability (a blob token, a survey
        // token). There is no identity to get wrong; a forged capability must find nothing.
        const forged = Object.fromEntries(Object.entries(A.ids).map(([k, v]) => [k, `${v.slice(0, -4)}zzzz`]));
        const res = await call(o.method, urlFor(o.path, forged), o.op, identities[0]!);
        expect([404, 410], `${o.method} ${o.path} with forged ids → ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
        return;
      }
      const path = urlFor(o.path, A.ids);
      const inPath = new Set(o.params.map((p) => A.ids[p]!));
      const callers: Identity[] = identities.filter((who) => !kinds.includes(who.kind));
      // Account B, with the token kind the route does accept, on A's ids (admin is not a tenant).
      for (const kind of kinds.filter((k) => k !== 'adminToken')) {
        callers.push({
          name: `B's ${kind}`,
          kind,
          headers: { authorization: `Bearer ${kind === 'apiToken' ? B.apiToken : B.integrationToken}` },
        });
      }
      expect(callers.length).toBeGreaterThan(0);
      for (const who of callers) {
        const res = await call(o.method, path, o.op, who);
        const what = `${o.method} ${path} as ${who.name} → ${res.status} ${res.text.slice(0, 300)}`;
        expect([401, 403, 404], what).toContain(res.status);
        // No credential for the route is 401; a valid account token of a kind the route does not
        // take is 403 (docs/errors.md); admin routes know no account tokens at all.
        if (who.kind === 'none' || who.kind === 'adminToken' || kinds.includes('adminToken')) expect(res.status, what).toBe(401);
        else if (who.name.startsWith("A's")) expect(res.status, what).toBe(403);
        const body = JSON.parse(res.text) as Record<string, unknown>;
        expect(Object.keys(body).sort(), what).toEqual(ERROR_KEYS);
        const leaked = A.secrets.filter((s) => !inPath.has(s) && res.text.includes(s));
        expect(leaked, what).toEqual([]);
      }
      // The ids are real: A's own token of the right kind reads them (not run for writes).
      if (o.method === 'GET') {
        const owner = identities.find((who) => kinds.includes(who.kind))!;
        const res = await call(o.method, path, o.op, owner);
        expect(res.status, `${o.method} ${path} as ${owner.name} (the owner) → ${res.status} ${res.text.slice(0, 300)}`).toBe(200);
      }
    },
  );
});
