import {
  credentials,
  status,
  type CallOptions,
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  type Metadata,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type { Logger } from '@feedback/kit-core';
import type { RequestContext } from '@feedback/kit-core/runtime';
import { retriedMethods, serviceConfigFor } from './call-policy.js';
import { statusToAppError } from './error-mapping.js';
import { callRecorder } from './grpc-metrics.js';
import { callMetadata } from './metadata.js';

/** A ts-proto grpc-js client constructor (e.g. SurveyServiceClient). */
export interface GrpcClientConstructor<C extends Client> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): C;
  service: ServiceDefinition;
}

export interface UnaryCallOptions {
  deadlineMs?: number;
  /**
   * The ids to send as metadata; default: the current async request context. For code that
   * carries its request id itself (the link listener's thread, docs/decisions.md).
   */
  context?: RequestContext;
}

/**
 * The unary signature from a ts-proto client method (its last overload is the full
 * request, metadata, options, callback form). Streaming methods return a stream, not a
 * ClientUnaryCall, and fall out.
 */
type UnaryOf<M> = M extends (
  request: infer Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: infer Res) => void,
) => infer R
  ? [ClientUnaryCall] extends [R]
    ? (request: Req, options?: UnaryCallOptions) => Promise<Res>
    : never
  : never;

type Reserved = keyof Client | 'raw' | 'close';

/** Promise-returning versions of a client's unary methods. */
export type PromiseClient<C extends Client> = {
  [K in Exclude<keyof C, Reserved> as UnaryOf<C[K]> extends never ? never : K]: UnaryOf<C[K]>;
};

export type GrpcClient<C extends Client> = PromiseClient<C> & {
  /** The underlying ts-proto client, for streaming calls (pass callMetadata() and a deadline). */
  readonly raw: C;
  close(): void;
};

/**
 * Reconnect backoff of every client channel. grpc-js's default grows from 1 s to 120 s, so a
 * service that was away for a minute stays unreachable for up to two more after it is back;
 * these keep the gap under a second or two while still not hammering a peer that is down.
 */
const RECONNECT_CHANNEL_OPTIONS = {
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // A DNS name (Kubernetes service) is re-resolved after a failure at most this often (default 30 s).
  'grpc.dns_min_time_between_resolutions_ms': 2_000,
} as const satisfies Partial<ClientOptions>;

/**
 * Per-call bookkeeping grpc-js does for nobody here. Channelz (its introspection service, which
 * no process exposes) counts and timestamps every call on the channel, the subchannel and the
 * socket; off, a unary call allocates less (docs/performance.md). Not for servers: grpc-js
 * 1.14's forceShutdown relies on the server's channelz session tracking (server.ts).
 */
export const LEAN_CHANNEL_OPTIONS = {
  'grpc.enable_channelz': 0,
} as const satisfies Partial<ClientOptions>;

/**
 * How a channel spreads and repeats its calls (call-policy.ts): round_robin over every address its
 * target resolves to (`dns:///<headless service>:port` gives one per pod, `ipv4:a:p1,b:p2` a list),
 * the service's reads retried. The config is ours alone: a DNS TXT record cannot replace it (grpc-js
 * would otherwise look one up at every resolution).
 */
export function balancedChannelOptions(service: ServiceDefinition) {
  return {
    'grpc.service_config': JSON.stringify(serviceConfigFor(service)),
    'grpc.service_config_disable_resolution': 1,
  } as const satisfies Partial<ClientOptions>;
}

export interface GrpcClientOptions {
  /** Deadline of every call unless the call says otherwise; default 5000 ms. */
  deadlineMs?: number;
  logger?: Logger;
  channelOptions?: Partial<ClientOptions>;
}

type RawUnary = (
  request: unknown,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: unknown) => void,
) => ClientUnaryCall;

/**
 * Wraps a ts-proto grpc-js client: every unary call gets a deadline and the request context's
 * ids as metadata (the call's own `context`, else the current one), is counted and timed by
 * code (grpc_client_* metrics), and a failure rejects with an AppError.
 */
export function createGrpcClient<C extends Client>(
  Ctor: GrpcClientConstructor<C>,
  address: string,
  opts: GrpcClientOptions = {},
): GrpcClient<C> {
  const { deadlineMs: defaultDeadlineMs = 5_000, logger } = opts;
  const raw = new Ctor(address, credentials.createInsecure(), {
    ...RECONNECT_CHANNEL_OPTIONS,
    ...LEAN_CHANNEL_OPTIONS,
    ...balancedChannelOptions(Ctor.service),
    ...opts.channelOptions,
  });
  const methods: Record<string, (request: unknown, options?: UnaryCallOptions) => Promise<unknown>> = {};
  const retried = new Set(retriedMethods(Ctor.service).map((m) => `/${m.service}/${m.method}`));

  for (const [name, def] of Object.entries(Ctor.service)) {
    if (def.requestStream || def.responseStream) continue;
    const method = (raw as unknown as Record<string, RawUnary>)[name];
    if (typeof method !== 'function') continue;
    const record = callRecorder('client', def);
    // grpc-js repeats a retried method only until the answer's headers arrive: a server killed
    // between its answer and the closing status (a reset connection) fails the call anyway. Such a
    // read is issued once more here, on the same deadline (call-policy.ts says which methods).
    const reissues = retried.has(def.path) ? 1 : 0;
    methods[name] = (request, callOpts = {}) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + (callOpts.deadlineMs ?? defaultDeadlineMs);
        let left = reissues;
        const issue = () => {
          const started = performance.now();
          const done = (err: ServiceError | null, response: unknown) => {
            record(err ? err.code : 0, (performance.now() - started) / 1000);
            // The debug lines cost an object and a clock read per call; built only when they are written.
            const debug = logger?.isLevelEnabled('debug') ? logger : undefined;
            if (!err) {
              debug?.debug({ method: def.path, duration_ms: Math.round(performance.now() - started) }, 'grpc client call');
              return resolve(response);
            }
            if (err.code === status.UNAVAILABLE && left > 0 && Date.now() < deadline) {
              left -= 1;
              debug?.debug({ method: def.path, details: err.details }, 'grpc client call issued again');
              return issue();
            }
            const appErr = statusToAppError(err);
            debug?.debug(
              {
                method: def.path,
                duration_ms: Math.round(performance.now() - started),
                grpc_code: err.code,
                details: err.details,
                kind: appErr.kind,
              },
              'grpc client call failed',
            );
            reject(appErr);
          };
          // grpc-js captures a stack trace (`new Error()`) on every unary call, only to append the
          // caller's stack to a failed call's error, and a failure becomes an AppError here, which
          // drops it. With no frames to capture that Error is cheap (it was ~5% of the gateway's CPU).
          const stackTraceLimit = Error.stackTraceLimit;
          Error.stackTraceLimit = 0;
          try {
            method.call(raw, request, callMetadata(callOpts.context), { deadline }, done);
          } finally {
            Error.stackTraceLimit = stackTraceLimit;
          }
        };
        issue();
      });
  }

  return Object.assign(methods, { raw, close: () => raw.close() }) as unknown as GrpcClient<C>;
}
