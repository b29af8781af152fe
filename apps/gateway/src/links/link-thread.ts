import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { ApiToken } from '../accounts/domain/account.js';
import type { TokenRepository } from '../accounts/domain/ports.js';
import type { MetricsJson } from '../http/metrics.js';

/** The main thread's answer to a token lookup of the link thread: the token (null: none), or a failure. */
export type TokenAnswer = { type: 'token'; id: number; token: ApiToken | null } | { type: 'token-failed'; id: number; error: string };
/** What the gateway's main thread tells the link listener's thread. */
export type ToLinkThread = { type: 'close' } | { type: 'metrics'; id: number } | TokenAnswer;
/** What the link listener's thread tells the main thread: its answers, its log lines, and token lookups. */
export type FromLinkThread =
  | { type: 'listening'; port: number }
  | { type: 'metrics'; id: number; metrics: MetricsJson }
  | { type: 'log'; line: string }
  | { type: 'token'; id: number; hash: string };

export interface LinkThreadOptions {
  /**
   * Writes one line of the thread's log. The process keeps one writer of stdout: two threads
   * writing buffered chunks to a pipe (a container's stdout) could interleave inside a line.
   */
  log(line: string): void;
  /**
   * Answers the thread's token lookups (POST /shorten naming a customer domain): the process's
   * one token cache, so a revocation through this gateway holds on both listeners at once.
   */
  tokens: Pick<TokenRepository, 'findByHash'>;
  /** Called once if the thread ends while nobody closed it (a crash): the process should go down. */
  onCrash(err: Error): void;
  /** How long `metrics` waits for the thread's answer; past it the link metrics are left out. */
  metricsTimeoutMs?: number;
  /** How long `close` waits for the thread to drain and close before it is terminated. */
  closeTimeoutMs?: number;
}

export interface LinkThread {
  /** The port the link listener listens on. */
  port: number;
  /** The thread's request metrics (prom-client JSON); empty when it does not answer in time. */
  metrics(): Promise<MetricsJson>;
  /** Drains the link listener and closes what the thread opened; resolves once it has ended. */
  close(): Promise<void>;
}

/**
 * Starts the link listener's thread (`link-thread.main`) and resolves once it listens. The
 * thread has an isolate of its own: no async request context, its own garbage collector and
 * JIT feedback, so redirects do not pay for the API listener's work (docs/decisions.md).
 */
export async function startLinkThread(entry: URL, opts: LinkThreadOptions): Promise<LinkThread> {
  // V8's memory reducer shrinks an isolate's heap once it goes idle after a burst; the link thread
  // then paid for many more young-generation collections at the next burst, a quarter more CPU per
  // redirect for minutes (docs/performance.md). Taps come in bursts (a campaign's SMS going out),
  // so its isolate keeps its heap. V8 reads the flag when an isolate's heap is set up: the main
  // thread's exists already, so it keeps its reducer.
  setFlagsFromString('--no-memory-reducer');
  // A young-generation collection splits its work among V8's helper threads and waits for them.
  // With the load on every core (a burst of taps: this thread, the clients' connections, the other
  // services), the helpers are not scheduled at once, and the link thread stood idle at each
  // collection: one thread's collection took a fifth less CPU per redirect and gave a fifth more
  // redirects a second at 50 connections (docs/performance.md). Read at each collection, so it
  // holds for the main thread too, whose young generation is as small.
  setFlagsFromString('--no-parallel-scavenge');
  const worker = newWorker(entry);
  const waiting = new Map<number, (metrics: MetricsJson) => void>();
  // Log lines come in order on the same port as everything else, so none is lost before 'exit'.
  const answer = (m: TokenAnswer) => worker.postMessage(m satisfies ToLinkThread);
  worker.on('message', (m: FromLinkThread) => {
    if (m.type === 'log') opts.log(m.line);
    else if (m.type === 'metrics') waiting.get(m.id)?.(m.metrics);
    else if (m.type === 'token') {
      opts.tokens.findByHash(m.hash).then(
        (token) => answer({ type: 'token', id: m.id, token }),
        (err: unknown) => answer({ type: 'token-failed', id: m.id, error: err instanceof Error ? err.message : String(err) }),
      );
    }
  });
  let state: 'starting' | 'running' | 'closing' | 'ended' = 'starting';
  const port = await new Promise<number>((resolve, reject) => {
    const started = (m: FromLinkThread) => m.type === 'listening' && (off(), resolve(m.port));
    const failed = (err: Error) => (off(), reject(err));
    const exited = (code: number) => (off(), reject(new Error(`the link listener's thread ended (${code}) before it listened`)));
    const off = () => worker.off('message', started).off('error', failed).off('exit', exited);
    worker.on('message', started).on('error', failed).on('exit', exited);
  }).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  state = 'running';

  let nextId = 0;
  const crashed = (err: Error) => {
    if (state !== 'running') return;
    state = 'ended';
    opts.onCrash(err);
  };
  worker.on('error', crashed);
  worker.on('exit', (code) => crashed(new Error(`the link listener's thread ended unexpectedly (exit code ${code})`)));

  return {
    port,
    metrics() {
      if (state !== 'running') return Promise.resolve([]);
      const id = nextId++;
      return new Promise<MetricsJson>((resolve) => {
        const timer = setTimeout(() => answer([]), opts.metricsTimeoutMs ?? 1_000);
        const answer = (metrics: MetricsJson) => (clearTimeout(timer), waiting.delete(id), resolve(metrics));
        waiting.set(id, answer);
        worker.postMessage({ type: 'metrics', id } satisfies ToLinkThread);
      });
    },
    async close() {
      if (state !== 'running') return;
      state = 'closing';
      const ended = once(worker, 'exit');
      worker.postMessage({ type: 'close' } satisfies ToLinkThread);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), opts.closeTimeoutMs ?? 20_000)));
      if ((await Promise.race([ended, late])) === 'late') await worker.terminate();
      clearTimeout(timer);
      state = 'ended';
    },
  };
}

/**
 * Under tsx (the local stack and the tests run the TypeScript sources) a worker registers tsx
 * itself: Node 20 does not hand `--import` loaders on to worker threads (nodejs/node#47747).
 */
function newWorker(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => (tsx.register(), import(${JSON.stringify(entry.href)})))`, {
    eval: true,
  });
}
