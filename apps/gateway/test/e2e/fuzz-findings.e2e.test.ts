import { describe, expect, it } from 'vitest';
import { stackClient } from './stack-client.js';

/**
 * What schemathesis found (apps/gateway/test/fuzz; docs/reliability.md), kept as plain tests:
 * each failed before its fix.
 */
const api = stackClient();
const admin = (path: string, body: unknown) =>
  api.request('POST', `/admin/v1${path}`, {
    headers: { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the OpenAPI document says what the admin API enforces', () => {
  it('declares that a name may not be only whitespace, and the answer names the field', { timeout: 60_000 }, async () => {
    const doc = (await (await fetch(`${api.baseUrl}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { pattern?: string }> } }> } }>
      >;
    };
    const pattern = doc.paths['/admin/v1/accounts']!.post!.requestBody.content['application/json']!.schema.properties.name!.pattern!;
    const re = new RegExp(pattern, 'u');
    for (const blank of ['\t', ' ', '\u00a0\u3000', '\ufeff\n']) {
      expect(re.test(blank), JSON.stringify(blank)).toBe(false);
      expect(blank.trim()).toBe('');
      const res = await admin('/accounts', { name: blank });
      expect(res.status, JSON.stringify(blank)).toBe(400);
      expect(Object.keys(res.json.errors ?? {})).toEqual(['body.name']);
    }
    for (const fine of ['a', ' Kadıköy ', '\u001c']) expect(re.test(fine), JSON.stringify(fine)).toBe(fine.trim() !== '');
    expect((await admin('/accounts', { name: ' Kadıköy ' })).status).toBe(201);
  });
});
