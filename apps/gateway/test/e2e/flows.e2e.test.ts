import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS, stackClient } from './stack-client.js';
import { publicError } from '../public-error.js';

const api = stackClient();

const FLOW = {
  name: 'Store visit',
  questions: [
    { key: 'nps', body: { en: 'How likely are you to recommend us?', tr: 'Tavsiye eder misiniz?' }, style: 'nps' },
    {
      key: 'liked',
      body: { en: 'What did you like?' },
      style: 'multiple_choice',
      options: [
        { key: 'staff', body: { en: 'Staff' } },
        { key: 'price', body: { en: 'Price' } },
      ],
    },
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('GET /external/v1/flows/{flow_id}', () => {
  let owner: Awaited<ReturnType<typeof api.newAccount>>;
  let other: Awaited<ReturnType<typeof api.newAccount>>;
  let flowId: string;

  beforeAll(async () => {
    owner = await api.newAccount('flow owner');
    other = await api.newAccount('someone else');
    flowId = (await api.admin('POST', `/accounts/${owner.id}/flows`, FLOW)).id!;
  });

  it('returns exactly the documented shape with an integration token (Bearer)', async () => {
    const res = await api.request('GET', `/external/v1/flows/${flowId}`, {
      headers: { authorization: `Bearer ${owner.integrationToken}`, accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['id', 'name', 'questions']);
    expect(res.json.id).toBe(flowId);
    expect(res.json.name).toBe('Store visit');
    const questions = res.json.questions as Array<Record<string, unknown>>;
    expect(questions.map((q) => Object.keys(q).sort())).toEqual([
      ['body', 'id', 'key', 'options', 'style'],
      ['body', 'id', 'key', 'options', 'style'],
    ]);
    expect(questions[0]).toMatchObject({ key: 'nps', style: 'nps', body: FLOW.questions[0]!.body, options: [] });
    const options = questions[1]!.options as Array<Record<string, unknown>>;
    expect(options.map((o) => o.key)).toEqual(['staff', 'price']);
    for (const id of [res.json.id, questions[0]!.id, questions[1]!.id, options[0]!.id, options[1]!.id]) expect(id).toMatch(UUID);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a strong ETag and 304 to a poller that sends it back, never to another account', async () => {
    const auth = { authorization: `Bearer ${owner.integrationToken}` };
    const first = await api.request('GET', `/external/v1/flows/${flowId}`, { headers: auth });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await api.request('GET', `/external/v1/flows/${flowId}`, { headers: { ...auth, 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const listed = await api.request('GET', `/external/v1/flows/${flowId}`, {
      headers: { ...auth, 'if-none-match': `"other", W/${etag}` },
    });
    expect(listed.status).toBe(304);
    const stale = await api.request('GET', `/external/v1/flows/${flowId}`, { headers: { ...auth, 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.json.id).toBe(flowId);
    // Later answers come from the gateway's cache (docs/decisions.md "Flow details cache"): the same bytes, still JSON.
    expect(stale.text).toBe(first.text);
    expect(stale.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const foreign = await api.request('GET', `/external/v1/flows/${flowId}`, {
      headers: { authorization: `Bearer ${other.integrationToken}`, 'if-none-match': etag! },
    });
    expect(foreign.status).toBe(404);
  });

  it('works with an API token, quoted and unquoted', async () => {
    for (const header of [`Token token="${owner.apiToken}"`, `Token token=${owner.apiToken}`]) {
      const res = await api.request('GET', `/external/v1/flows/${flowId}`, { headers: { authorization: header } });
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(flowId);
    }
  });

  it('answers 401 / 13001 for missing, wrong and revoked tokens', async () => {
    const expect401 = async (headers: Record<string, string>) => {
      const res = await api.request('GET', `/external/v1/flows/${flowId}`, { headers });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(publicError('Wrong authentication token', 13001, null));
    };
    await expect401({});
    await expect401({ authorization: 'Bearer fbk_int_not-a-real-token' });
    await expect401({ authorization: `Basic ${owner.integrationToken}` });
    await expect401({ authorization: 'Token token="' });

    const victim = await api.newAccount('revocation');
    const victimFlow = (await api.admin('POST', `/accounts/${victim.id}/flows`, FLOW)).id!;
    const ok = await api.request('GET', `/external/v1/flows/${victimFlow}`, {
      headers: { authorization: `Bearer ${victim.integrationToken}` },
    });
    expect(ok.status).toBe(200);
    const revoke = await api.request('DELETE', `/admin/v1/accounts/${victim.id}/tokens/${victim.integrationTokenId}`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    expect(revoke.status).toBe(204);
    await expect401({ authorization: `Bearer ${victim.integrationToken}` });
  });

  it('answers 404 / 13002 naming flow_id for unknown and foreign flows', async () => {
    for (const [token, id] of [
      [owner.integrationToken, '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b'],
      [other.integrationToken, flowId],
    ] as const) {
      const res = await api.request('GET', `/external/v1/flows/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(publicError('Requested resource not found!', 13002, { flow_id: id }));
    }
  });

  it('never answers 5xx to malformed ids', async () => {
    const ids = ['not-a-uuid', '%00', '..%2F..%2Fetc', 'x'.repeat(150), '%E2%9C%93', "1' OR '1'='1", '%7B%22%24gt%22%3A%22%22%7D'];
    for (const id of ids) {
      const res = await api.request('GET', `/external/v1/flows/${id}`, { headers: { authorization: `Bearer ${owner.integrationToken}` } });
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
      expect(Object.keys(res.json).sort(), id).toEqual(ERROR_KEYS);
    }
  });
});
