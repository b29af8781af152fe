import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  /** Redirects count as successes when the expected status is 3xx. */
  expectStatus?: number;
  /** A fresh body for every request (e.g. a random customer), instead of the fixed `body`. */
  nextBody?: () => string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** CPU the load generator itself (this process) used per request, in ms: what the machine lent it. */
  loadgenCpuMs?: number;
}

/** One bounded load run on a loopback address with autocannon. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const expected = o.expectStatus ?? 200;
  let wrongStatus = 0;
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    connections: o.connections,
    duration: o.durationSec,
    ...(o.nextBody && { requests: [{ setupRequest: (req) => ({ ...req, body: o.nextBody!() }) }] }),
    // autocannon counts 2xx only; count anything but the expected status ourselves.
    setupClient: (client) => {
      client.on('response', (status: number) => {
        if (status !== expected) wrongStatus++;
      });
    },
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    loadgenCpuMs: result.requests.total > 0 ? (cpu.user + cpu.system) / 1000 / result.requests.total : 0,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + wrongStatus,
  };
}
