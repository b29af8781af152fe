import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiListeners } from './openapi-fixture.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        tags?: string[];
        parameters?: Array<{ name: string; in: string; schema: { maxLength?: number } }>;
        security?: Array<Record<string, string[]>>;
        responses: Record<string, { content?: Record<string, unknown> }>;
        requestBody?: { content: Record<string, { schema: { properties: Record<string, { maxLength?: number }> } }> };
      }
    >
  >;
  tags?: Array<{ name: string; description?: string }>;
  components: { schemas?: Record<string, unknown> };
};

// What generated clients and fuzzers read: every answer a route gives is in its listener's
// document, and declared limits are the enforced ones.
describe('the OpenAPI documents', () => {
  let api: FastifyInstance;
  let link: FastifyInstance;
  let apiDoc: Doc;
  let linkDoc: Doc;

  beforeAll(async () => {
    ({ api, link } = await openApiListeners());
    apiDoc = (await api.inject('/openapi.json')).json();
    linkDoc = (await link.inject('/openapi.json')).json();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await link?.close();
  });

  it('lists GET and HEAD /{code} on the link listener, with its redirect and its HTML 404', () => {
    const code = linkDoc.paths['/{code}'];
    expect(code?.get?.responses).toHaveProperty('302');
    expect(code?.get?.responses['404']?.content).toHaveProperty(['text/html']);
    expect(code).toHaveProperty('head');
  });

  it('documents the optional API token of POST /shorten (a customer domain needs it) and its 401 and 403', () => {
    const shorten = linkDoc.paths['/shorten']!.post!;
    expect(shorten.security).toEqual([{}, { apiToken: [] }]);
    expect(Object.keys(shorten.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '429']);
  });

  it('declares the URL length POST /shorten enforces', async () => {
    const body = linkDoc.paths['/shorten']!.post!.requestBody!.content['application/json']!.schema;
    expect(body.properties.url!.maxLength).toBe(2048);
    const res = await link.inject({ method: 'POST', url: '/shorten', payload: { url: `https://example.com/${'a'.repeat(2049)}` } });
    expect(res.statusCode).toBe(400);
  });

  it('describes blob downloads (200, 206, HEAD) with the filename limit the router enforces', () => {
    const blob = apiDoc.paths['/public/v2/storage/blobs/{blob_token}/{filename}']!;
    expect(Object.keys(blob.get!.responses).sort()).toEqual(['200', '206', '400', '404', '410', '414', '416']);
    expect(blob.get!.responses['200']!.content).toHaveProperty(['application/octet-stream']);
    expect(blob).toHaveProperty('head');
    expect(blob.get!.parameters!.find((p) => p.name === 'filename')!.schema.maxLength).toBe(200);
  });

  it("describes the upload's multipart body", () => {
    const upload = apiDoc.paths['/v2/file_service/directory/{directory_id}/files']!.post!;
    const form = upload.requestBody!.content['multipart/form-data']!.schema as unknown as {
      required: string[];
      properties: Record<string, { format?: string; maxLength?: number }>;
    };
    expect(form.required.sort()).toEqual(['file', 'filename']);
    expect(form.properties.file!.format).toBe('binary');
    expect(form.properties.filename!.maxLength).toBe(200);
  });

  it("documents the CSV workflow's directory bindings on the admin API", () => {
    const base = '/admin/v1/accounts/{account_id}/sms_campaigns/{campaign_id}/directories';
    const ops = { post: apiDoc.paths[base]!.post!, get: apiDoc.paths[base]!.get!, delete: apiDoc.paths[`${base}/{directory_id}`]!.delete! };
    const codes = Object.fromEntries(Object.entries(ops).map(([m, op]) => [m, Object.keys(op.responses).sort()]));
    expect(codes).toEqual({
      post: ['201', '400', '401', '404', '414'],
      get: ['200', '400', '401', '404', '414'],
      delete: ['204', '400', '401', '404', '414'],
    });
    for (const op of Object.values(ops)) expect(op.security).toEqual([{ adminToken: [] }]);
    const body = ops.post.requestBody!.content['application/json']!.schema as unknown as { required: string[]; properties: object };
    expect(body.required).toEqual(['directory_id']);
    expect(Object.keys(body.properties).sort()).toEqual(['directory_id', 'file_name']);
    expect(ops.delete.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['file_name']);
  });

  it('documents the responses API: its CSV export as text/csv, its errors as JSON, the API token', () => {
    const csv = apiDoc.paths['/v1/responses/export.csv']!.get!;
    expect(Object.keys(csv.responses['200']!.content!)).toEqual(['text/csv']);
    for (const status of ['400', '401', '403', '404'])
      expect(Object.keys(csv.responses[status]!.content!), status).toEqual(['application/json']);
    for (const path of ['/v1/responses', '/v1/responses/export.csv', '/v1/responses/{response_id}', '/v1/flows/{flow_id}/nps']) {
      const op = apiDoc.paths[path]!.get!;
      expect(op.security, path).toEqual([{ apiToken: [] }]);
      expect(op.tags, path).toEqual(['responses']);
      expect(op.responses, path).toHaveProperty('404');
    }
    const query = apiDoc.paths['/v1/responses']!.get!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    expect(query.sort()).toEqual([
      'campaign_id',
      'channel_id',
      'customer_external_id',
      'flow_id',
      'page_size',
      'page_token',
      'sharing_id',
      'since',
      'until',
    ]);
  });

  it('documents 403 on every route that takes one kind of account token (a valid token of the other kind is 403)', () => {
    const oneKind = Object.entries(apiDoc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => {
          const kinds = new Set((op.security ?? []).flatMap((req) => Object.keys(req)));
          return kinds.size === 1 && (kinds.has('apiToken') || kinds.has('integrationToken'));
        })
        .map(([method, op]) => ({ what: `${method} ${path}`, op })),
    );
    // Active surveys, personal links, SMS and files: at least these.
    expect(oneKind.length).toBeGreaterThanOrEqual(10);
    for (const { what, op } of oneKind) expect(op.responses, what).toHaveProperty('403');
    // Flow details take either kind: no token is of the wrong kind there.
    expect(apiDoc.paths['/external/v1/flows/{flow_id}']!.get!.responses).not.toHaveProperty('403');
  });

  it('documents 414 on every route with a path parameter', () => {
    for (const [path, methods] of Object.entries(apiDoc.paths)) {
      if (!path.includes('{')) continue;
      for (const [method, op] of Object.entries(methods)) expect(op.responses, `${method} ${path}`).toHaveProperty('414');
    }
  });

  it('names every operation for client generators: a camelCase operationId unique over both documents, a summary, its own security, declared tags', () => {
    const ids: string[] = [];
    for (const doc of [apiDoc, linkDoc]) {
      const declared = new Set((doc.tags ?? []).map((t) => t.name));
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const what = `${method} ${path}`;
          expect(op.operationId, what).toMatch(/^[a-z][A-Za-z0-9]*$/);
          ids.push(op.operationId!);
          expect(op.summary, what).toBeTruthy();
          // Public operations say so (`[]`, or `{}` among the alternatives) rather than inherit nothing.
          expect(op.security, what).toBeInstanceOf(Array);
          expect(op.tags?.length, what).toBeGreaterThan(0);
          for (const tag of op.tags ?? []) expect(declared, `${what}: tag ${tag}`).toContain(tag);
        }
      }
    }
    expect(ids.length - new Set(ids).size, 'repeated operationIds').toBe(0);
    // The ones the docs and a generated client name.
    expect(linkDoc.paths['/shorten']!.post!.operationId).toBe('shortenUrl');
    expect(apiDoc.paths['/external/v1/flows/{flow_id}']!.get!.operationId).toBe('getFlow');
  });

  it('names the shared schemas after their $id, not def-N', () => {
    expect(Object.keys(apiDoc.components.schemas ?? {})).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'Flow',
        'FileDirectory',
        'FileEntry',
        'Account',
        'ActiveSurveyList',
        'PersonalLink',
        'SmsSharing',
      ]),
    );
    expect(Object.keys(linkDoc.components.schemas ?? {}).sort()).toEqual(['ErrorBody', 'ShortenedLink']);
    expect(Object.keys(apiDoc.components.schemas ?? {}).filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    const flow = apiDoc.paths['/external/v1/flows/{flow_id}']!.get!.responses['200']!.content!['application/json'] as { schema: unknown };
    expect(flow.schema).toEqual({ $ref: '#/components/schemas/Flow' });
  });
});
