import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Logger } from '@feedback/kit-core';
import { env } from '@feedback/kit-core/runtime';
import { wrapHandlers } from './handler-wrapping.js';
import { createHealthService } from './health.service.js';

export interface GrpcServiceRegistration {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  /** Interface to listen on; default 0.0.0.0. */
  host?: string;
  /** 0 picks a free port (tests). */
  port: number;
  services: GrpcServiceRegistration[];
  logger: Logger;
  /** How long shutdown() lets in-flight calls finish before cutting them; default 10 s. */
  shutdownGraceMs?: number;
  /**
   * A client connection is sent GOAWAY after this long (±10%, grpc-js's jitter), default 30 s: its
   * client reconnects and re-resolves the service's name, so pods added by a scale-up or a rollout
   * get calls within about this long; a connection is otherwise kept for the pod's whole life.
   */
  maxConnectionAgeMs?: number;
  /** How long calls in flight on such a connection may still run before it is cut; default 5 min. */
  maxConnectionAgeGraceMs?: number;
}

export const DEFAULT_MAX_CONNECTION_AGE_MS = 30_000;
export const DEFAULT_MAX_CONNECTION_AGE_GRACE_MS = 300_000;

/**
 * The connection-age settings of a gRPC service, for its env.ts. The default grace outlives any
 * unary deadline many times over; a service with long streams (the file service's uploads) passes
 * a longer one. The GOAWAY stops only new calls on the connection, so a long grace costs nothing
 * unless a call hangs.
 */
export const grpcServerEnv = (defaults: { maxConnectionAgeGraceMs?: number } = {}) => ({
  GRPC_MAX_CONNECTION_AGE_MS: env.int(DEFAULT_MAX_CONNECTION_AGE_MS, 1_000),
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: env.int(defaults.maxConnectionAgeGraceMs ?? DEFAULT_MAX_CONNECTION_AGE_GRACE_MS, 0),
});

/** Where a service's gRPC server listens and its connection ages, from its config (GRPC_HOST, GRPC_PORT, grpcServerEnv). */
export const grpcListenOptions = (config: {
  GRPC_HOST: string;
  GRPC_PORT: number;
  GRPC_MAX_CONNECTION_AGE_MS: number;
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: number;
}) => ({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
  maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
});

export interface RunningGrpcServer {
  port: number;
  /** host:port, ready for createGrpcClient. */
  address: string;
  server: Server;
  /** Flips every health entry ('' and each service) between SERVING and NOT_SERVING. */
  setServing(serving: boolean): void;
  /** Idempotent: NOT_SERVING, drain in-flight calls, force after the grace period. */
  shutdown(): Promise<void>;
}

/** Full service name ("feedback.survey.v1.SurveyService") from a method path "/pkg.Service/Method". */
function serviceName(definition: ServiceDefinition): string | undefined {
  const path = Object.values(definition)[0]?.path;
  return path?.split('/')[1];
}

function bind(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}

export async function startGrpcServer(opts: GrpcServerOptions): Promise<RunningGrpcServer> {
  const {
    host = '0.0.0.0',
    logger,
    shutdownGraceMs = 10_000,
    maxConnectionAgeMs = DEFAULT_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs = DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
  } = opts;
  // Channelz stays on here (LEAN_CHANNEL_OPTIONS is for clients): grpc-js 1.14's forceShutdown
  // only cuts the sessions its channelz bookkeeping tracks, so without it the grace period
  // would not end stuck calls (test/shutdown.unit.test.ts).
  const server = new Server({
    'grpc.max_connection_age_ms': maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': maxConnectionAgeGraceMs,
  });
  const names = opts.services.map((s) => serviceName(s.definition)).filter((n): n is string => n !== undefined);
  const health = createHealthService(names);
  // Health stays unwrapped: probes every few seconds would only add noise to the call log.
  server.addService(health.definition, health.implementation);
  for (const s of opts.services) server.addService(s.definition, wrapHandlers(s.definition, s.implementation, logger));

  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = await bind(server, `${hostPart}:${opts.port}`);
  const address = `${hostPart}:${port}`;
  logger.info({ address, services: names }, 'grpc server listening');

  let closing: Promise<void> | undefined;
  const shutdown = () => {
    closing ??= new Promise<void>((resolve) => {
      health.close();
      const force = setTimeout(() => {
        logger.warn({ grace_ms: shutdownGraceMs }, 'grpc calls still running after the grace period; forcing shutdown');
        server.forceShutdown();
        resolve();
      }, shutdownGraceMs);
      force.unref();
      server.tryShutdown((err) => {
        clearTimeout(force);
        if (err) logger.warn({ err }, 'grpc graceful shutdown failed');
        else logger.info('grpc server stopped');
        resolve();
      });
    });
    return closing;
  };

  return { port, address, server, setServing: health.setServing, shutdown };
}
