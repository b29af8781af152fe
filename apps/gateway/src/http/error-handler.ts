import { AppError, ERROR_TABLE, errorBody, errors, isOutage, type ErrorKind } from '@feedback/kit-core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Fastify's own error codes → our kinds, with the field the caller should look at. */
const FASTIFY_ERRORS: Record<string, { kind: ErrorKind; field?: [string, string] }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { kind: 'invalid', field: ['body', 'is not valid JSON'] },
  FST_ERR_CTP_EMPTY_JSON_BODY: { kind: 'invalid', field: ['body', 'must not be empty'] },
  FST_ERR_CTP_BODY_TOO_LARGE: { kind: 'too_large', field: ['body', 'is too large'] },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { kind: 'unsupported_media_type', field: ['content-type', 'is not supported'] },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { kind: 'invalid', field: ['content-length', 'does not match the body'] },
  FST_ERR_CTP_INVALID_TYPE: { kind: 'invalid', field: ['content-type', 'must be a string'] },
  FST_ERR_BAD_URL: { kind: 'invalid', field: ['url', 'is malformed'] },
};

function fieldPath(v: { instancePath?: string; params?: Record<string, unknown> }, context: string): string {
  const path = (v.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
  const missing = v.params?.missingProperty ?? v.params?.additionalProperty;
  return `${context}${path}${missing ? `.${String(missing)}` : ''}`;
}

/** The one place where anything thrown in a request becomes the public error body (docs/errors.md). */
export function toAppError(err: FastifyError | AppError | Error, req: FastifyRequest): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation) {
    const fields: Record<string, string> = {};
    for (const v of fe.validation) {
      const key = fieldPath(v, fe.validationContext ?? 'body');
      const msg = v.keyword === 'additionalProperties' ? 'is not allowed' : (v.message ?? 'is invalid');
      fields[key] ??= msg;
    }
    return errors.invalid(fields);
  }
  const known = fe.code ? FASTIFY_ERRORS[fe.code] : undefined;
  if (known) return new AppError(known.kind, undefined, known.field ? { [known.field[0]]: known.field[1] } : {});
  if (fe.statusCode === 413) return errors.tooLarge();
  if (fe.statusCode === 415) return errors.unsupportedMediaType();
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return errors.invalid({});
  // The gateway's own database (tokens, accounts) unreachable: retry later, not a bug.
  if (isOutage(err)) {
    req.log.warn({ err }, 'a dependency is unreachable');
    return errors.unavailable();
  }
  req.log.error({ err }, 'unhandled error');
  return errors.internal();
}

/** Seconds a client should wait before retrying a 503 (a peer, the database or S3 away). */
const UNAVAILABLE_RETRY_AFTER_SEC = 5;

export function sendError(reply: FastifyReply, err: AppError) {
  if (err.kind === 'internal' || err.kind === 'unavailable') reply.request.log.warn({ kind: err.kind }, err.message);
  if (err.kind === 'unavailable') reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SEC));
  return reply.status(ERROR_TABLE[err.kind].http).type('application/json; charset=utf-8').send(errorBody(err));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => sendError(reply, toAppError(err, req)));
  app.setNotFoundHandler((req, reply) => sendError(reply, errors.notFound('route', `${req.method} ${req.url.split('?')[0]}`)));
}
