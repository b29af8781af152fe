import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver for the end-to-end tests: a real HTTP server on 127.0.0.1 (the local stack
// allows plain http to loopback, and retries within seconds), whose deliveries are checked with
// the Standard Webhooks library, as an integrator's would be.

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver: each path answers the statuses given for it in turn (then its last one), 204 by default. */
export function receiver() {
  const received: Received[] = [];
  const plans = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const plan = plans.get(path) ?? [204];
      const status = plan.length > 1 ? plan.shift()! : plan[0]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `failing with ${status}` : 'ok');
    });
  });
  return {
    received,
    plan: (path: string, statuses: number[]) => plans.set(path, statuses),
    at: (path: string) => received.filter((r) => r.path === path),
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every request verified with the secret by the specification's library; answers the parsed bodies. */
export function verifyAll(requests: Received[], secret: string) {
  const wh = new Webhook(secret);
  return requests.map(
    (r) => wh.verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> },
  );
}
