import { status } from '@grpc/grpc-js';
import { ERROR_TABLE, toPublicError } from '@feedback/kit-core';
import { counter, histogram } from '@feedback/kit-metrics';

/**
 * gRPC call metrics in go-grpc-prometheus's names and labels, so its dashboards and alerts apply:
 * handled calls by code, and handling time, of servers and of clients. The histograms carry the
 * code too: a call that fails at its deadline must not stretch the latency of the ones that answer.
 * Label values come from service definitions and the status table only, never from a request.
 */
const LABELS = ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'] as const;

const handled = {
  server: counter({ name: 'grpc_server_handled_total', help: 'gRPC calls finished by the server, by code', labelNames: LABELS }),
  client: counter({ name: 'grpc_client_handled_total', help: 'gRPC calls finished by the client, by code', labelNames: LABELS }),
};
const handling = {
  server: histogram({ name: 'grpc_server_handling_seconds', help: 'Time the server took to finish a gRPC call', labelNames: LABELS }),
  client: histogram({ name: 'grpc_client_handling_seconds', help: 'Time a gRPC call took, as its client saw it', labelNames: LABELS }),
};

export interface MethodShape {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
}

const grpcType = (m: MethodShape) =>
  m.requestStream ? (m.responseStream ? 'bidi_stream' : 'client_stream') : m.responseStream ? 'server_stream' : 'unary';

/** The status code a server answers for what a handler threw or reported (as appErrorToStatus maps it). */
export const codeOfError = (err: unknown): number => ERROR_TABLE[toPublicError(err).kind].grpc;

/** What records one finished call of a method: its code and how long it took. */
export type CallRecorder = (code: number, seconds: number) => void;

/**
 * A recorder for one method. Label sets are bound once per code (prom-client otherwise builds
 * and hashes the label object on every call); a method sees a handful of codes at most.
 */
export function callRecorder(side: 'server' | 'client', method: MethodShape): CallRecorder {
  const [, service = 'unknown', name = 'unknown'] = method.path.split('/');
  const type = grpcType(method);
  const bound = new Map<number, { inc(): void; observe(seconds: number): void }>();
  return (code, seconds) => {
    let b = bound.get(code);
    if (!b) {
      const labels = { grpc_type: type, grpc_service: service, grpc_method: name, grpc_code: status[code] ?? String(code) };
      const count = handled[side].labels(labels);
      const time = handling[side].labels(labels);
      b = { inc: () => count.inc(), observe: (s) => time.observe(s) };
      bound.set(code, b);
    }
    b.inc();
    b.observe(seconds);
  };
}
