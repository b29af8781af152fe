import type { Logger } from '@feedback/kit-core';
import { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { clientErrorHandler, frameworkError } from './edge-errors.js';
import { genReqId } from './request-context.js';

/**
 * What both listeners share: our logger and request ids, strict validation, 503 while closing,
 * and the public error body (docs/errors.md) also for what fails before a route (router, Node's HTTP parser).
 */
export function baseFastifyOptions(logger: Logger, bodyLimit: number) {
  return {
    loggerInstance: logger as FastifyBaseLogger,
    genReqId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false } },
  } satisfies FastifyServerOptions & { loggerInstance: FastifyBaseLogger };
}
