import { AppError, type ErrorKind, type Logger } from '@feedback/kit-core';
import { createLogger, currentContext } from '@feedback/kit-core/runtime';
import { EchoServiceService, type EchoRequest, type EchoServiceServer } from '@feedback/proto/feedback/testing/v1/echo';
import { startGrpcServer, type GrpcServiceRegistration, type RunningGrpcServer } from '../src/index.js';

export const SECRET = 'db password hunter2 at mongo-0.internal';

export interface LogEntry {
  level: number;
  obj: Record<string, unknown>;
  msg: string | undefined;
}

/** A real pino logger whose lines are kept in memory instead of written out. */
export function captureLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const logger = createLogger('kit-grpc-test', 'debug', {
    hooks: {
      logMethod(args, _method, level) {
        const [first, second] = args as unknown[];
        const obj = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
        const msg = typeof first === 'string' ? first : typeof second === 'string' ? second : undefined;
        entries.push({ level, obj, msg });
      },
    },
  });
  return { logger, entries };
}

/**
 * Echo handler: waits delay_ms, then throws (fail_kind 'plain' → a plain Error carrying a
 * secret, any other kind → AppError of that kind with fields {flow_id: 'x'}) or answers with
 * the request context it runs in. Without a delay it throws synchronously.
 */
export function echoService(onCall: (req: EchoRequest) => void = () => {}): GrpcServiceRegistration {
  const implementation: EchoServiceServer = {
    echo(call, callback) {
      const req = call.request;
      onCall(req);
      const answer = () => {
        if (req.failKind === 'plain') throw new Error(SECRET);
        if (req.failKind) throw new AppError(req.failKind as ErrorKind, undefined, { flow_id: 'x' });
        const ctx = currentContext();
        callback(null, { message: req.message, requestId: ctx?.requestId ?? '', accountId: ctx?.accountId ?? '' });
      };
      if (req.delayMs > 0) return new Promise<void>((resolve) => setTimeout(resolve, req.delayMs)).then(answer);
      answer();
    },
  };
  return { definition: EchoServiceService, implementation };
}

export const ECHO_SERVICE_NAME = 'feedback.testing.v1.EchoService';

export function startEchoServer(
  opts: { logger?: Logger; onCall?: (req: EchoRequest) => void; extra?: GrpcServiceRegistration[] } = {},
): Promise<RunningGrpcServer> {
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [echoService(opts.onCall), ...(opts.extra ?? [])],
    logger: opts.logger ?? createLogger('kit-grpc-test', 'silent'),
  });
}
