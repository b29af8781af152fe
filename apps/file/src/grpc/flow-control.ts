import type { Http2Server, Http2Session } from 'node:http2';
import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@feedback/kit-core';

/**
 * grpc-js 1.14 leaves its server sessions at HTTP/2's default 64 KiB flow-control window and
 * has no option to change it (its client has `grpc-node.flow_control_window`). An upload stream
 * then moves one 64 KiB window per round trip between the gateway's and this service's event
 * loops, which capped uploads at about 50 MB/s on loopback; a 1 MiB window lifts them to what
 * S3 takes. The cost is bounded: at most one window per stream is buffered before the upload
 * handler's pause() holds the sender back. Reaches into grpc-js's private server list, so it
 * checks its shape and only warns when a grpc-js upgrade moves it.
 */
export function widenFlowControlWindow(server: Server, windowBytes: number, logger: Logger): void {
  const servers = (server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers;
  if (!(servers instanceof Map) || servers.size === 0) {
    logger.warn('cannot widen the gRPC flow-control window: grpc-js internals changed; uploads will be slower');
    return;
  }
  const widen = (session: Http2Session) => {
    session.settings({ initialWindowSize: windowBytes });
    session.setLocalWindowSize(windowBytes * 4); // the connection's window, shared by its streams
  };
  for (const http2Server of servers.keys()) http2Server.on('session', widen);
}
