import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { StackFile } from '@feedback/dev-stack';
import { errorShapeProblem, sleep } from './fault-kit.js';

/*
 * A modest load of real API calls, as integrators and phones make them, that remembers what the
 * stack acknowledged: short links, redirects served, uploaded files, SMS sharings. Afterwards
 * `verify` checks that none of it was lost, and `problems` that every answer in between was one
 * a client may get (docs/errors.md).
 */

export interface Tenant {
  accountId: string;
  apiToken: string;
  integrationToken: string;
  nodeId: string;
  flowId: string;
  campaignId: string;
  directoryId: string;
  /** A customer with one active survey at the node. */
  email: string;
}

type Op = 'shorten' | 'redirect' | 'flow' | 'upload' | 'active_surveys' | 'sms_sharing';
interface Answer {
  op: Op;
  /** When the request was sent and when it ended. */
  at: number;
  end: number;
  /** HTTP status, or how the request failed without one. */
  status: number | 'network' | 'timeout';
  /** For 'network': the system's error code (ECONNREFUSED: nothing listened, so nothing was sent). */
  code?: string;
  problem?: string;
  /** The gateway's x-request-id of an answer >= 500, to find it in the gateway's log. */
  requestId?: string;
}
interface Http {
  status: number;
  text: string;
  headers: Headers;
}

const REQUEST_TIMEOUT_MS = 30_000;
/** Refusals a client may get for a valid request: the SMS limit; the same Idempotency-Key still running. */
const ALLOWED_4XX: Partial<Record<Op, number[]>> = { shorten: [429], sms_sharing: [409, 429] };

export class Admin {
  constructor(private readonly stack: StackFile) {}

  /** Retries 503 (the documented "try again") a few times: setup runs right after a recovery. */
  async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.stack.base_url}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${this.stack.admin_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status < 300) return JSON.parse(text) as Record<string, unknown>;
      if (res.status !== 503 || attempt >= 10) throw new Error(`admin ${method} ${path} → ${res.status} ${text}`);
      await sleep(1_000);
    }
  }
}

/** A fresh account with everything the load touches (fresh, so the SMS limit's tiers start empty). */
export async function newTenant(stack: StackFile, label: string): Promise<Tenant> {
  const admin = new Admin(stack);
  const tag = `${label}-${randomBytes(3).toString('hex')}`;
  const account = await admin.call('POST', '/accounts', { name: `faults ${tag}` });
  const id = String(account.id);
  const api = await admin.call('POST', `/accounts/${id}/tokens`, { kind: 'api', name: 'api' });
  const integration = await admin.call('POST', `/accounts/${id}/tokens`, { kind: 'integration', name: 'int' });
  const node = await admin.call('POST', `/accounts/${id}/nodes`, { name: `node ${tag}` });
  const flow = await admin.call('POST', `/accounts/${id}/flows`, {
    name: `flow ${tag}`,
    questions: [{ key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' }],
  });
  const channel = await admin.call('POST', `/accounts/${id}/channels`, {
    name: 'web',
    node_id: node.id,
    flow_id: flow.id,
    link_ttl_days: 7,
  });
  const campaign = await admin.call('POST', `/accounts/${id}/sms_campaigns`, {
    name: `campaign ${tag}`,
    node_id: node.id,
    flow_id: flow.id,
    message_template: 'Hello: {{link}}',
  });
  const email = `customer-${tag}@example.com`;
  const auth = (token: unknown) => ({ authorization: `Bearer ${String(token)}`, 'content-type': 'application/json' });
  const link = await fetch(`${stack.base_url}/external/v1/link_channels/${String(channel.id)}/links`, {
    method: 'POST',
    headers: auth(integration.token),
    body: JSON.stringify({ customer: { email } }),
  });
  if (link.status !== 200) throw new Error(`personal link: ${link.status} ${await link.text()}`);
  const dir = await fetch(`${stack.base_url}/v2/file_service/${id}/directories`, {
    method: 'POST',
    headers: auth(api.token),
    body: JSON.stringify({ name: `dir ${tag}` }),
  });
  if (dir.status !== 201) throw new Error(`directory: ${dir.status} ${await dir.text()}`);
  return {
    accountId: id,
    apiToken: String(api.token),
    integrationToken: String(integration.token),
    nodeId: String(node.id),
    flowId: String(flow.id),
    campaignId: String(campaign.id),
    directoryId: String(((await dir.json()) as { data: { id: string } }).data.id),
    email,
  };
}

interface Gateway {
  base_url: string;
  shortener_url: string;
}

const refused = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';

const PHONE_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** A valid Turkish mobile number: +90 532 xxx xx xx. */
export const randomPhone = () => `+90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

export class Load {
  readonly answers: Answer[] = [];
  /** Acknowledged short links: code → URL. */
  readonly links = new Map<string, string>();
  /** Redirects served (302 to the right URL) per code: the clicks that must be counted. */
  readonly taps = new Map<string, number>();
  /** Every upload tried, by filename: its bytes' hash and, when acknowledged, its URL. */
  readonly uploads = new Map<string, { sha: string; url?: string }>();
  /** Every SMS sharing tried: acknowledged ones must reach the provider exactly once per phone, the others at most once. */
  readonly sharings: { phones: string[]; acked: boolean; retriedAfter5xx: boolean }[] = [];
  /** Requests whose connection a gateway refused (nothing was sent) and that another gateway then took. */
  rerouted = 0;
  private people = 0;
  private stopped = false;
  private loops: Promise<void>[] = [];
  private readonly gateways: Gateway[];
  private turn = 0;

  /**
   * `gateways`: several gateway processes. Each request goes to the next in turn, and one whose
   * connection is refused goes to the next (as a Service's load balancer moves a connection it could
   * not make); with one gateway a refused connection is the client's failure.
   */
  constructor(
    private readonly stack: StackFile,
    private readonly t: Tenant,
    private readonly opts: { clients?: number; pauseMs?: number; smsEveryMs?: number; gateways?: Gateway[] } = {},
  ) {
    this.gateways = opts.gateways ?? [{ base_url: stack.base_url!, shortener_url: stack.shortener_url! }];
  }

  private next(): Gateway {
    return this.gateways[this.turn++ % this.gateways.length]!;
  }

  start(): void {
    const ops: Op[] = ['redirect', 'shorten', 'redirect', 'flow', 'redirect', 'upload', 'redirect', 'active_surveys'];
    for (let i = 0; i < (this.opts.clients ?? 4); i++) {
      this.loops.push(
        (async () => {
          for (let n = i; !this.stopped; n++) {
            await this.run(ops[n % ops.length]!);
            await sleep(this.opts.pauseMs ?? 20);
          }
        })(),
      );
    }
    if (this.opts.smsEveryMs) this.loops.push(this.smsLoop(this.opts.smsEveryMs));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** One call of each route; resolves with the ones that did not answer 2xx (or 302). */
  async probe(): Promise<string[]> {
    const failed: string[] = [];
    for (const op of ['shorten', 'redirect', 'flow', 'upload', 'active_surveys'] as Op[]) {
      const ok = await this.run(op, true);
      if (!ok) failed.push(op);
    }
    if (!(await this.share([randomPhone()], randomUUID(), true))) failed.push('sms_sharing');
    return failed;
  }

  /** Probes every route until each answers 2xx; returns when that was, or throws after `timeoutMs`. */
  async recovered(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const failed = await this.probe();
      if (failed.length === 0) return Date.now();
      if (Date.now() > deadline) throw new Error(`not recovered within ${timeoutMs} ms: ${failed.join(', ')} still fail`);
      await sleep(250);
    }
  }

  /**
   * Everything a client should not have seen: an answer outside the error shape (docs/errors.md),
   * a 4xx to a valid request, a request that hung, a 503 outside [from, to] (the outage), a refused or
   * reset connection unless the gateway itself was down.
   */
  problems(window: { from: number; to: number; connectionErrors: 'any' | 'refused' | 'none' }): string[] {
    const out: string[] = [];
    // In flight at some moment of the outage: sent before the kill and failed by it counts too.
    const inOutage = (a: Answer) => a.end >= window.from && a.at <= window.to;
    const allowed = (code?: string) =>
      window.connectionErrors === 'any' || (window.connectionErrors === 'refused' && code === 'ECONNREFUSED');
    for (const a of this.answers) {
      const when = `${a.op} at ${new Date(a.at).toISOString()}`;
      if (a.problem) out.push(`${when}: ${a.problem}`);
      else if (a.status === 'timeout') out.push(`${when}: no answer within ${REQUEST_TIMEOUT_MS} ms`);
      else if (a.status === 'network' && !(inOutage(a) && allowed(a.code))) out.push(`${when}: connection failed (${a.code})`);
      else if (a.status === 503 && !inOutage(a)) out.push(`${when}: 503 outside the outage (request ${a.requestId}, ${a.end - a.at} ms)`);
    }
    return out;
  }

  /** Answers per operation and status, for the log. */
  tally(): Record<string, Record<string, number>> {
    const t: Record<string, Record<string, number>> = {};
    for (const a of this.answers) {
      t[a.op] ??= {};
      t[a.op]![a.status] = (t[a.op]![a.status] ?? 0) + 1;
    }
    return t;
  }

  private async smsLoop(everyMs: number) {
    while (!this.stopped) {
      const started = Date.now();
      await this.share([randomPhone(), randomPhone(), randomPhone()], randomUUID(), false);
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  }

  /** One sharing, retried with its Idempotency-Key after a 5xx, a 409 or a lost connection, as a careful client does. */
  private async share(phones: string[], key: string, once: boolean): Promise<boolean> {
    const sharing = { phones, acked: false, retriedAfter5xx: false };
    this.sharings.push(sharing);
    for (;;) {
      const res = await this.http('sms_sharing', `${this.next().base_url}/v1/sms_campaigns/${this.t.campaignId}/sms_sharings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.t.apiToken}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ phone_numbers: phones }),
      });
      if (res?.status === 200) return (sharing.acked = true);
      if (once || this.stopped || res?.status === 429) return false;
      if (!res || res.status >= 500) sharing.retriedAfter5xx = true;
      await sleep(1_000);
    }
  }

  /** Runs one operation; resolves whether it succeeded. */
  private async run(op: Op, probing = false): Promise<boolean> {
    const { base_url: base, shortener_url: links } = this.next();
    const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    switch (op) {
      case 'shorten': {
        const url = `https://example.com/faults/${randomUUID()}`;
        const res = await this.http(op, `${links}/shorten`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
        });
        if (res?.status !== 200) return false;
        this.links.set(String((JSON.parse(res.text) as { id: string }).id), url);
        return true;
      }
      case 'redirect': {
        const known = [...this.links];
        if (known.length === 0) return probing ? this.run('shorten').then(() => this.run('redirect', true)) : true;
        const [code, url] = probing ? known[known.length - 1]! : known[randomInt(known.length)]!;
        // Each tap another person's phone: a person's repeat within a minute is no click (docs/api.md).
        const res = await this.http(
          op,
          `${links}/${code}`,
          { headers: { 'user-agent': `${PHONE_BROWSER} person/${++this.people}` } },
          (r) =>
            r.status === 302 && r.headers.get('location') !== url ? `302 to ${r.headers.get('location')} instead of ${url}` : undefined,
        );
        if (res?.status !== 302) return false;
        this.taps.set(code, (this.taps.get(code) ?? 0) + 1);
        return true;
      }
      case 'flow':
        return (
          (await this.http(op, `${base}/external/v1/flows/${this.t.flowId}`, { headers: bearer(this.t.integrationToken) }))?.status === 200
        );
      case 'active_surveys': {
        const res = await this.http(
          op,
          `${base}/external/v1/nodes/${this.t.nodeId}/active_surveys`,
          { method: 'POST', headers: bearer(this.t.integrationToken), body: JSON.stringify({ customer: { email: this.t.email } }) },
          (r) =>
            r.status === 200 && !r.text.includes('"count":1') ? `the customer's survey is missing: ${r.text.slice(0, 200)}` : undefined,
        );
        return res?.status === 200;
      }
      case 'upload': {
        const filename = `f-${randomUUID()}.csv`;
        const bytes = randomBytes(randomInt(8_000, 64_000));
        const entry: { sha: string; url?: string } = { sha: sha(bytes) };
        this.uploads.set(filename, entry);
        const form = new FormData();
        form.append('filename', filename);
        form.append('file', new Blob([bytes]), 'x.csv');
        const res = await this.http(op, `${base}/v2/file_service/directory/${this.t.directoryId}/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.t.apiToken}` },
          body: form,
        });
        if (res?.status !== 201) return false;
        entry.url = (JSON.parse(res.text) as { data: { url: string } }).data.url;
        return true;
      }
      case 'sms_sharing':
        return this.share([randomPhone()], randomUUID(), true);
    }
  }

  /** fetch, and after a refused connection the same request to each other gateway in turn. */
  private async balanced(url: string, init: RequestInit): Promise<Response> {
    const origin = new URL(url).origin;
    const at = this.gateways.findIndex((g) => new URL(g.base_url).origin === origin || new URL(g.shortener_url).origin === origin);
    const api = at >= 0 && new URL(this.gateways[at]!.base_url).origin === origin;
    for (let tried = 0; ; tried++) {
      const g = this.gateways[(at + tried) % this.gateways.length]!;
      try {
        return await fetch(new URL(url.slice(origin.length), api ? g.base_url : g.shortener_url), init);
      } catch (err) {
        if (at < 0 || !refused(err) || tried + 1 >= this.gateways.length) throw err;
        this.rerouted++;
      }
    }
  }

  private async http(op: Op, url: string, init: RequestInit, check?: (r: Http) => string | undefined): Promise<Http | undefined> {
    const at = Date.now();
    try {
      const res = await this.balanced(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const r = { status: res.status, text: await res.text(), headers: res.headers };
      let problem = check?.(r);
      if (!problem && r.status >= 400) {
        problem = errorShapeProblem(r.status, r.text);
        if (!problem && r.status < 500 && !ALLOWED_4XX[op]?.includes(r.status))
          problem = `${r.status} to a valid request: ${r.text.slice(0, 200)}`;
      }
      const requestId = r.status >= 500 ? (res.headers.get('x-request-id') ?? undefined) : undefined;
      this.answers.push({ op, at, end: Date.now(), status: r.status, problem, requestId });
      return r;
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      this.answers.push({ op, at, end: Date.now(), status: timedOut ? 'timeout' : 'network', code });
      return undefined;
    }
  }
}
