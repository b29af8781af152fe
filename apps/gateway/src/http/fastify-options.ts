import type { Logger } from '@feedback/kit-core';
import type { RequestLogging } from '@feedback/kit-core/runtime';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { AccessLogController, requestView } from './access-log.js';
import { clientErrorHandler, frameworkError } from './edge-errors.js';
import { genReqId } from './request-context.js';

/**
 * What both listeners share: our logger and request ids, strict validation, 503 while closing,
 * and the public error body (docs/errors.md) also for what fails before a route (router, Node's HTTP parser).
 */
export function baseFastifyOptions(logger: Logger, bodyLimit: number, requestLogging: RequestLogging = 'all') {
  return {
    // Fastify's default `req` serializer writes the URL; ours writes what requestView allows.
    loggerInstance: logger.child({}, { serializers: { req: requestView } }) as FastifyBaseLogger,
    genReqId,
    // One access line per request at completion, or fewer (LOG_REQUESTS); see access-log.ts.
    logController: new AccessLogController(requestLogging),
    bodyLimit,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    // allowUnionTypes: `type: [...]` lists are meant (sms.schemas.ts PerPhone); without it ajv's
    // strict mode prints a warning to stderr for each at every start.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, allowUnionTypes: true } },
  } satisfies FastifyServerOptions & { loggerInstance: FastifyBaseLogger };
}
