import { readStackFile } from '@feedback/dev-stack';

// The public API of the running stack, as the end-to-end tests call it.
const stack = readStackFile();
const base = stack.base_url!;

/** One request with an API token, the admin token or neither; the answer's status, text and JSON. */
export async function call(method: string, path: string, opts: { token?: string; admin?: boolean; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Token token=${opts.token}`;
  if (opts.admin) headers.authorization = `Bearer ${stack.admin_token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, text, json: (text ? JSON.parse(text) : undefined) as any };
}

/** An admin API call that must succeed: its JSON. */
export async function admin(method: string, path: string, body?: unknown) {
  const res = await call(method, `/admin/v1${path}`, { admin: true, body });
  if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}
