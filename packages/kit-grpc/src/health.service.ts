import { status, type ServerWritableStream } from '@grpc/grpc-js';
import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthService,
  type HealthCheckRequest,
  type HealthCheckResponse,
  type HealthServer,
} from '@feedback/proto/grpc/health/v1/health';

type Watcher = ServerWritableStream<HealthCheckRequest, HealthCheckResponse>;

/**
 * The standard grpc.health.v1 service. '' stands for the whole server. Watch streams are
 * ended by close(), otherwise they would hold a graceful shutdown open until it is forced.
 */
export function createHealthService(serviceNames: string[]) {
  const statuses = new Map<string, ServingStatus>(['', ...serviceNames].map((n) => [n, ServingStatus.SERVING]));
  const watchers = new Set<Watcher>();
  let closed = false;

  const implementation: HealthServer = {
    check(call, callback) {
      const known = statuses.get(call.request.service);
      if (known === undefined) callback({ code: status.NOT_FOUND, details: 'unknown service' });
      else callback(null, { status: known });
    },
    watch(call) {
      call.write({ status: statuses.get(call.request.service) ?? ServingStatus.SERVICE_UNKNOWN });
      if (closed) return call.end();
      watchers.add(call);
      call.on('cancelled', () => watchers.delete(call));
    },
  };

  function setServing(serving: boolean) {
    if (closed) return; // a stopping server never goes back to SERVING
    const next = serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    if (statuses.get('') === next) return; // all entries move together; Watch sends changes only
    for (const name of statuses.keys()) statuses.set(name, next);
    for (const w of watchers) if (statuses.has(w.request.service)) w.write({ status: next });
  }

  /** NOT_SERVING for good, and every Watch stream ended. */
  function close() {
    setServing(false);
    closed = true;
    for (const w of watchers) w.end();
    watchers.clear();
  }

  return { definition: HealthService, implementation, setServing, close };
}
