import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { SoakFixture } from './soak-fixture.js';

/** One request: its route's name and what it came to, an HTTP status or a network failure's code. */
export interface Outcome {
  route: string;
  status: number | string;
}

/** 2xx and 3xx are answers; anything else (4xx, 5xx, a reset, a timeout) is an error. */
export const isError = (status: number | string) => typeof status !== 'number' || status >= 400;

interface Route {
  /** Its name in SOAK_WEIGHTS. */
  key: string;
  name: string;
  /** Its share of the mix: weight / the sum of the weights. */
  weight: number;
  origin: 'api' | 'link';
  method: 'GET' | 'POST';
  path: () => string;
  headers: Record<string, string>;
  body?: () => Buffer;
}

const TIMEOUT_MS = 10_000;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A 1 KiB CSV under a new name each time, as multipart/form-data. */
function uploadForm(boundary: string) {
  const csv = 'phone,name\n' + Array.from({ length: 40 }, (_, i) => `+90532${String(1_000_000 + i)},Customer ${i}`).join('\n') + '\n';
  let n = 0;
  return () =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nsoak-${Date.now()}-${n++}.csv\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="soak.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n` +
        `--${boundary}--\r\n`,
    );
}

/** "redirect=40,flow=25" (SOAK_WEIGHTS): weights by route key; a route not named keeps its default, 0 leaves it out. */
export const parseWeights = (spec = ''): Record<string, number> =>
  Object.fromEntries(
    spec
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string])
      .map(([k, v]) => [k.trim(), Number(v)]),
  );

/**
 * The soak's mix, weighted roughly as the public routes are used: the link listener's redirects
 * most, then what an integration reads (flow details, the active survey query), fewer writes
 * (new short links), and a few small uploads so the file service and S3 are in the path too.
 */
export function soakRoutes(f: SoakFixture, weights: Record<string, number> = {}): Route[] {
  const integration = { authorization: `Bearer ${f.integrationToken}` };
  const boundary = `soak${randomBytes(8).toString('hex')}`;
  const routes: Route[] = [
    {
      key: 'redirect',
      name: 'GET /{code} (redirect)',
      weight: 40,
      origin: 'link',
      method: 'GET',
      path: () => `/${pick(f.codes)}`,
      headers: {},
    },
    {
      key: 'flow',
      name: 'GET flow details',
      weight: 25,
      origin: 'api',
      method: 'GET',
      path: () => `/external/v1/flows/${f.flowId}`,
      headers: integration,
    },
    {
      key: 'active',
      name: 'POST active_surveys',
      weight: 20,
      origin: 'api',
      method: 'POST',
      path: () => `/external/v1/nodes/${f.nodeId}/active_surveys`,
      headers: { ...integration, 'content-type': 'application/json' },
      body: () => json({ customer: { external_id: pick(f.externalIds) } }),
    },
    {
      key: 'shorten',
      name: 'POST /shorten',
      weight: 10,
      origin: 'link',
      method: 'POST',
      path: () => '/shorten',
      headers: { 'content-type': 'application/json' },
      body: () => json({ url: `https://survey.example.com/s/${randomBytes(6).toString('base64url')}?utm_source=soak` }),
    },
    {
      key: 'upload',
      name: 'POST upload (1 KiB)',
      weight: 5,
      origin: 'api',
      method: 'POST',
      path: () => `/v2/file_service/directory/${f.directoryId}/files`,
      headers: { authorization: `Bearer ${f.apiToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: uploadForm(boundary),
    },
  ];
  for (const [key, weight] of Object.entries(weights)) {
    const route = routes.find((r) => r.key === key);
    if (!route || !(weight >= 0)) throw new Error(`SOAK_WEIGHTS: ${key}=${weight}? routes: ${routes.map((r) => r.key).join(', ')}`);
    route.weight = weight;
  }
  return routes.filter((r) => r.weight > 0);
}

/**
 * Sends the mix over keep-alive connections (at most `maxSockets` to each listener; more
 * requests wait for one, and that wait counts in their latency). `next()` picks a route by
 * weight and resolves with its outcome; it never rejects.
 */
export function mixClient(o: { apiUrl: string; linkUrl: string; routes: Route[]; maxSockets: number }) {
  // fifo: every kept connection is used in turn, so none idles long enough to meet the server's keep-alive timeout.
  const agent = new Agent({ keepAlive: true, maxSockets: o.maxSockets, scheduling: 'fifo' });
  const origins = { api: new URL(o.apiUrl), link: new URL(o.linkUrl) };
  const total = o.routes.reduce((s, r) => s + r.weight, 0);
  const cumulative = o.routes.map((r, i) => [o.routes.slice(0, i + 1).reduce((s, x) => s + x.weight, 0), r] as const);
  const choose = () => {
    const x = Math.random() * total;
    return (cumulative.find(([upTo]) => x < upTo) ?? cumulative[cumulative.length - 1]!)[1];
  };
  const send = (route: Route) =>
    new Promise<Outcome>((resolve) => {
      const origin = origins[route.origin];
      const body = route.body?.();
      const req = request(
        {
          host: origin.hostname,
          port: origin.port,
          method: route.method,
          path: route.path(),
          headers: body ? { ...route.headers, 'content-length': body.length } : route.headers,
          agent,
          timeout: TIMEOUT_MS,
        },
        (res) => {
          res.on('error', (err: NodeJS.ErrnoException) => resolve({ route: route.name, status: err.code ?? err.name }));
          res.on('end', () => resolve({ route: route.name, status: res.statusCode ?? 'no status' }));
          res.resume();
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ route: route.name, status: err.code ?? err.name }));
      req.end(body);
    });
  return { next: () => send(choose()), close: () => agent.destroy() };
}
