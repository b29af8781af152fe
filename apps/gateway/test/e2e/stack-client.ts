import { readStackFile } from '@feedback/dev-stack';

/** Talks to the running stack as an integrator would: plain HTTP, nothing else. */
export function stackClient() {
  const stack = readStackFile();
  if (!stack.base_url || !stack.admin_token) throw new Error('stack file has no base_url/admin_token: is the gateway up?');
  const baseUrl = stack.base_url;
  const adminToken = stack.admin_token;

  async function request(method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
    const res = await fetch(baseUrl + path, { method, headers: opts.headers, body: opts.body });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> & { errors?: Record<string, string> } };
  }

  async function admin(method: string, path: string, body?: unknown) {
    const res = await request(method, `/admin/v1${path}`, {
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status >= 300) throw new Error(`admin ${method} ${path} → ${res.status} ${res.text}`);
    return res.json as Record<string, string>;
  }

  /** A fresh account with both token kinds. */
  async function newAccount(name = 'e2e') {
    const account = await admin('POST', '/accounts', { name });
    const api = await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' });
    const integration = await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'integration', name: 'int' });
    return {
      id: account.id!,
      apiToken: api.token!,
      apiTokenId: api.id!,
      integrationToken: integration.token!,
      integrationTokenId: integration.id!,
    };
  }

  return { baseUrl, adminToken, request, admin, newAccount, stack };
}

export const ERROR_KEYS = ['code', 'data', 'error_message', 'errors'];
