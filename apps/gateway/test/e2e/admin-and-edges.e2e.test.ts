import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, stackClient } from './stack-client.js';

const api = stackClient();
const json = (body: unknown, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/json', ...extra },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('admin API', () => {
  it('creates accounts, tokens and nodes with the documented shapes', async () => {
    const acc = await api.request('POST', '/admin/v1/accounts', json({ name: 'Shape test' }));
    expect(acc.status).toBe(201);
    expect(Object.keys(acc.json).sort()).toEqual(['created_at', 'id', 'name']);
    expect(acc.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

    const tok = await api.request('POST', `/admin/v1/accounts/${acc.json.id}/tokens`, json({ kind: 'api', name: 'ci' }));
    expect(tok.status).toBe(201);
    expect(Object.keys(tok.json).sort()).toEqual(['created_at', 'id', 'kind', 'name', 'token']);
    expect(tok.json.token).toMatch(/^fbk_api_/);

    const list = await api.request('GET', `/admin/v1/accounts/${acc.json.id}/tokens`, json(undefined));
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json)).not.toContain(String(tok.json.token));

    const node = await api.request('POST', `/admin/v1/accounts/${acc.json.id}/nodes`, json({ name: 'Kadıköy store' }));
    expect(node.status).toBe(201);
    expect(node.json.name).toBe('Kadıköy store');
  });

  it('requires the admin token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-admin-token' }, { authorization: `Token token=${api.adminToken}` }] as Record<
      string,
      string
    >[]) {
      const res = await api.request('POST', '/admin/v1/accounts', {
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe(13001);
    }
  });

  it('refuses an invalid flow definition naming the field', async () => {
    const acc = await api.admin('POST', '/accounts', { name: 'invalid flows' });
    const res = await api.request(
      'POST',
      `/admin/v1/accounts/${acc.id}/flows`,
      json({
        name: 'Bad',
        questions: [{ key: 'q1', body: { en: 'Pick one' }, style: 'single_choice', options: [{ key: 'a', body: { en: 'A' } }] }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(13000);
    expect(res.json.errors).toHaveProperty(['questions[0].options']);

    const style = await api.request(
      'POST',
      `/admin/v1/accounts/${acc.id}/flows`,
      json({ name: 'Bad', questions: [{ key: 'q1', body: { en: 'Q' }, style: 'slider' }] }),
    );
    expect(style.status).toBe(400);
    expect(style.json.errors?.['questions[0].style']).toMatch(/must be one of/);
  });

  it('answers 404 for an unknown account and token', async () => {
    const res = await api.request('POST', '/admin/v1/accounts/no-such-account/nodes', json({ name: 'x' }));
    expect(res.status).toBe(404);
    expect(res.json.errors).toEqual({ account_id: 'no-such-account' });
    const acc = await api.admin('POST', '/accounts', { name: 'tokens' });
    const del = await api.request('DELETE', `/admin/v1/accounts/${acc.id}/tokens/nope`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    expect(del.status).toBe(404);
    expect(del.json.errors).toEqual({ token_id: 'nope' });
  });
});

describe('bad input never gives a 5xx, always the error shape', () => {
  const cases: Array<[string, { headers?: Record<string, string>; body?: string }, number, string?]> = [
    ['malformed JSON', json('{"name": '), 400, 'body'],
    ['wrong type', json({ name: 42 }), 400, 'body.name'],
    ['missing field', json({}), 400, 'body.name'],
    ['unknown field', json({ name: 'x', admin: true }), 400, 'body.admin'],
    ['JSON array', json([1, 2]), 400],
    [
      'wrong content type',
      { headers: { authorization: `Bearer ${api.adminToken}`, 'content-type': 'text/plain' }, body: 'name=x' },
      415,
      'content-type',
    ],
    [
      'form content type',
      { headers: { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' },
      415,
    ],
    ['huge body', json({ name: 'x'.repeat(2 * 1024 * 1024) }), 413],
    ['empty body with JSON type', json(''), 400],
  ];
  for (const [name, req, status, field] of cases) {
    it(name, async () => {
      const res = await api.request('POST', '/admin/v1/accounts', req);
      expect(res.status).toBe(status);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.data).toBe(res.json.error_message);
      if (field) expect(Object.keys(res.json.errors ?? {})).toContain(field);
    });
  }

  it('unknown routes answer 404 / 13002', async () => {
    const res = await api.request('GET', '/v9/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 13002, errors: { route: 'GET /v9/nothing-here' } });
  });
});

describe('operations endpoints', () => {
  it('/health, /ready and /health/dependencies answer (metrics are on a port of their own: metrics.e2e.test.ts)', async () => {
    expect((await api.request('GET', '/health')).json).toEqual({ status: 'ok' });
    const ready = await api.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready' });
    const dependencies = await api.request('GET', '/health/dependencies');
    expect(dependencies.status).toBe(200);
    expect(dependencies.json).toEqual({
      status: 'ok',
      checks: { mongo: 'ok', flow: 'ok', file: 'ok', shortener: 'ok', survey: 'ok', messaging: 'ok', webhooks: 'ok' },
    });
  });

  it('echoes a caller-supplied request id and replaces a forged one', async () => {
    const good = await api.request('GET', '/health', { headers: { 'x-request-id': 'crm-call-123' } });
    expect(good.headers.get('x-request-id')).toBe('crm-call-123');
    const forged = await api.request('GET', '/health', { headers: { 'x-request-id': 'bad id\twith\ttabs' } });
    expect(forged.headers.get('x-request-id')).not.toContain('bad id');
  });

  it('documents every public and admin route in OpenAPI, with a browsable page', async () => {
    const doc = await api.request('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe('3.0.3');
    const paths = Object.keys(doc.json.paths as object);
    for (const p of [
      '/external/v1/flows/{flow_id}',
      '/admin/v1/accounts',
      '/admin/v1/accounts/{account_id}/tokens',
      '/admin/v1/accounts/{account_id}/flows',
    ]) {
      expect(paths).toContain(p);
    }
    const docs = await api.request('GET', '/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text.toLowerCase()).toContain('swagger');
  });
});
