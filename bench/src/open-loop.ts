import { isError, type Outcome } from './soak-mix.js';

/** What completed in one window of an open-loop run. */
export interface Window {
  index: number;
  /** Seconds since the start: the window holds the requests that completed in [from, to). */
  from: number;
  to: number;
  /** Requests sent in the window (on schedule or late). */
  issued: number;
  /** Latency in ms, from each request's scheduled start to its answer, by route. */
  latencies: Record<string, number[]>;
  /** How many requests came to each status (HTTP status or network failure). */
  statuses: Record<string, number>;
  errors: number;
  /** The most a request left after its scheduled start (ms): the load generator falling behind. */
  maxLagMs: number;
}

const emptyWindow = (index: number, from: number): Window => ({
  index,
  from,
  to: from,
  issued: 0,
  latencies: {},
  statuses: {},
  errors: 0,
  maxLagMs: 0,
});

/**
 * An open loop: requests start at a fixed rate whatever the answers take, and each latency runs
 * from the request's scheduled start, so a slow answer or a queue in front of the server shows
 * in the figures instead of slowing the load down (no coordinated omission). More than
 * `maxInFlight` unanswered requests count the next ones as errors ('overload') instead of
 * piling them up without bound. `onWindow` gets each window as it closes.
 */
export async function runOpenLoop(o: {
  rate: number;
  durationSec: number;
  windowSec: number;
  maxInFlight: number;
  op: () => Promise<Outcome>;
  onWindow: (w: Window) => void;
}): Promise<Window[]> {
  const start = performance.now();
  const total = Math.round(o.rate * o.durationSec);
  const windows: Window[] = [];
  let current = emptyWindow(0, 0);
  const record = (w: Window, route: string, status: number | string, ms?: number) => {
    w.statuses[String(status)] = (w.statuses[String(status)] ?? 0) + 1;
    if (isError(status)) w.errors++;
    if (ms !== undefined) (w.latencies[route] ??= []).push(ms);
  };
  const close = (to: number) => {
    current.to = to;
    windows.push(current);
    o.onWindow(current);
    current = emptyWindow(windows.length, to);
  };
  const inFlight = new Set<Promise<void>>();
  let issued = 0;
  const fire = (scheduled: number) => {
    current.issued++;
    current.maxLagMs = Math.max(current.maxLagMs, performance.now() - scheduled);
    if (inFlight.size >= o.maxInFlight) return record(current, 'overload', 'overload');
    const p: Promise<void> = o
      .op()
      .then(({ route, status }) => record(current, route, status, performance.now() - scheduled))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  for (;;) {
    const elapsed = (performance.now() - start) / 1000;
    const windowEnd = (windows.length + 1) * o.windowSec;
    // The last window stays open until every answer is in (below).
    if (elapsed >= windowEnd && windowEnd < o.durationSec) close(windowEnd);
    // Request i is due at i / rate seconds: request 0 at once.
    const due = Math.min(total, Math.floor(elapsed * o.rate) + 1);
    while (issued < due) fire(start + (issued++ * 1000) / o.rate);
    if (issued >= total) break;
    await new Promise((r) => setTimeout(r, 1));
  }
  // The last requests' answers belong to the last window, however long they take.
  while (inFlight.size) await Promise.all(inFlight);
  close(Math.max((performance.now() - start) / 1000, current.from));
  return windows;
}
