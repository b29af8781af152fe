import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, errorBody, type Logger } from '@feedback/kit-core';
import { exposition, type MetricsSource } from './exposition.js';
import { metricsRegistry, useAppLabel } from './registry.js';

export interface MetricsListenerOptions {
  /** The `app` label of every series (gateway, survey, ...). */
  app: string;
  /** Interface to listen on; default 0.0.0.0. */
  host?: string;
  /** 0 picks a free port (tests). */
  port: number;
  logger: Logger;
}

export interface MetricsListener {
  port: number;
  /** http://host:port, where GET /metrics answers. */
  url: string;
  /** Adds another thread's metrics to what /metrics serves. */
  include(source: MetricsSource): void;
  /** Stops listening and drops kept-alive scrape connections; idempotent. Shaped for onShutdown. */
  close(): Promise<void>;
  name: string;
}

function sendError(res: ServerResponse, err: AppError, status: number) {
  const body = JSON.stringify(errorBody(err));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * A small HTTP server of its own for Prometheus: GET (or HEAD) /metrics answers the process's
 * registry in the text format; anything else is a 404 in the API's error shape. It stays apart
 * from the public listeners so that scraping needs no route, token or exception there, and a
 * NetworkPolicy can open it to the monitoring namespace alone.
 */
export async function startMetricsListener(opts: MetricsListenerOptions): Promise<MetricsListener> {
  const { host = '0.0.0.0', logger } = opts;
  useAppLabel(opts.app);
  const sources: MetricsSource[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return sendError(res, new AppError('not_found'), 404);
    }
    exposition(sources).then(
      (text) => {
        res.writeHead(200, { 'content-type': metricsRegistry.contentType, 'content-length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics collection failed');
        sendError(res, new AppError('internal'), 500);
      },
    );
  };
  const server = createServer(handle);
  // A scrape is one short request; nothing legitimate holds a connection open for longer.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: opts.port }, () => (server.off('error', reject), resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const url = `http://${hostPart}:${port}`;
  logger.info({ url }, 'metrics listener listening');

  let closing: Promise<void> | undefined;
  return {
    name: 'metrics-listener',
    port,
    url,
    include: (source) => void sources.push(source),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
