import type { EventEmitter } from 'node:events';
import {
  status,
  type Metadata,
  type sendUnaryData,
  type ServiceDefinition,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { AppError, type Logger } from '@feedback/kit-core';
import { runWithContext, type RequestContext } from '@feedback/kit-core/runtime';
import { appErrorToStatus } from './error-mapping.js';
import { callRecorder, codeOfError, type CallRecorder, type MethodShape } from './grpc-metrics.js';
import { contextFromMetadata } from './metadata.js';

/** What every server call object (unary, readable, writable, duplex) has in common here. */
type Call = { readonly metadata: Metadata; emit: EventEmitter['emit']; writableEnded?: boolean };
/** All four handler shapes, seen from the one place that calls them. */
type AnyHandler = (this: unknown, call: Call, callback?: sendUnaryData<unknown>) => unknown;

/**
 * Wraps every handler of a service: the call runs inside the request context read from its
 * metadata, is logged at debug with its duration, counted and timed by code (grpc-metrics.ts), and
 * whatever it throws or reports is mapped to a status by appErrorToStatus (so only AppErrors reach the peer).
 */
export function wrapHandlers(
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
  logger: Logger,
): UntypedServiceImplementation {
  const wrapped: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = implementation[name] as AnyHandler | undefined;
    if (!handler) continue; // grpc-js answers UNIMPLEMENTED for it
    const bound = handler.bind(implementation);
    const wrap = method.responseStream ? wrapStreaming : wrapWithCallback;
    wrapped[name] = wrap(method, bound, logger) as unknown as UntypedHandleCall;
  }
  return wrapped;
}

function startCall(call: Call, path: string, record: CallRecorder, logger: Logger) {
  const ctx = contextFromMetadata(call.metadata);
  const started = performance.now();
  let finished = false;
  const finish = (err?: unknown, extra: Record<string, unknown> = {}) => {
    if (finished) return;
    finished = true;
    const code = extra.cancelled ? status.CANCELLED : err === undefined || err === null ? status.OK : codeOfError(err);
    record(code, (performance.now() - started) / 1000);
    // Answered calls (a result or an AppError) are logged at debug only: below it, nothing is built or run.
    if ((err === undefined || err === null || err instanceof AppError) && !logger.isLevelEnabled('debug')) return;
    const log = { method: path, duration_ms: Math.round(performance.now() - started), ...extra };
    runWithContext(ctx, () => {
      if (err === undefined || err === null) logger.debug(log, 'grpc call');
      else if (err instanceof AppError) logger.debug({ ...log, kind: err.kind, code: err.code }, 'grpc call failed');
      else logger.error({ ...log, err }, 'grpc handler failed');
    });
  };
  return { ctx, finish };
}

/**
 * grpc-js emits stream and cancellation events from its own callbacks, outside any async
 * context, so listeners the handler registers ('data', 'cancelled') would lose the request
 * context; running emit inside it fixes that for every listener at once.
 */
function emitInContext(call: Call, ctx: RequestContext, intercept?: (event: string | symbol, args: unknown[]) => unknown[]) {
  const emit = call.emit;
  call.emit = function (this: Call, event: string | symbol, ...args: unknown[]) {
    const final = intercept ? intercept(event, args) : args;
    return runWithContext(ctx, () => emit.call(this, event, ...final));
  };
}

function invoke(run: () => unknown, onError: (err: unknown) => void) {
  try {
    const result = run();
    if (result instanceof Promise) result.catch(onError);
  } catch (err) {
    onError(err);
  }
}

/** Unary and client-streaming handlers answer through a callback. */
function wrapWithCallback(method: MethodShape, handler: AnyHandler, logger: Logger) {
  const record = callRecorder('server', method);
  return (call: Call, callback: sendUnaryData<unknown>) => {
    const { ctx, finish } = startCall(call, method.path, record, logger);
    emitInContext(call, ctx);
    let answered = false;
    const respond = (err: unknown, value?: unknown, trailer?: Metadata, flags?: number) => {
      if (answered) return;
      answered = true;
      finish(err);
      if (err) callback(appErrorToStatus(err));
      else callback(null, value, trailer, flags);
    };
    runWithContext(ctx, () => invoke(() => handler(call, respond), respond));
  };
}

/** Server-streaming and bidi handlers end the stream or emit 'error' on it. */
function wrapStreaming(method: MethodShape, handler: AnyHandler, logger: Logger) {
  const record = callRecorder('server', method);
  return (call: Call) => {
    const { ctx, finish } = startCall(call, method.path, record, logger);
    emitInContext(call, ctx, (event, args) => {
      if (event === 'finish') finish();
      if (event === 'cancelled') finish(undefined, { cancelled: true });
      if (event !== 'error') return args;
      finish(args[0]);
      return [appErrorToStatus(args[0])];
    });
    runWithContext(ctx, () =>
      invoke(
        () => handler(call),
        (err) => {
          if (!call.writableEnded) call.emit('error', err);
          else logger.error({ method: method.path, err }, 'grpc handler failed after ending its stream');
        },
      ),
    );
  };
}
