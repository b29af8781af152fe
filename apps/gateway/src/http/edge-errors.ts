import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, ERROR_TABLE, errorBody, errors } from '@feedback/kit-core';
import { META, newRequestId } from '@feedback/kit-core/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageContext, sendHtml } from '../console/console-page.js';
import { messagePage } from '../console/layout.views.js';
import { sendError } from './error-handler.js';

/**
 * Errors raised before a route runs still answer the public error body (docs/errors.md). Fastify's router reports an
 * over-long path parameter (414) or a malformed URL (400) through `frameworkErrors`; left alone
 * it would answer `{"error": …, "code": "FST_ERR_…"}`.
 */
export function frameworkError(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  reply.header(META.requestId, req.id);
  const refusal =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('uri_too_long', undefined, { url: 'is too long' })
      : err.code === 'FST_ERR_BAD_URL'
        ? errors.invalid({ url: 'is malformed' })
        : undefined;
  // A person reads the console's answers: its refusals are console pages, as its routes' own.
  if (refusal && req.url.startsWith('/console/'))
    return sendHtml(
      reply,
      ERROR_TABLE[refusal.kind].http,
      messagePage(
        pageContext(req),
        'invalid',
        Object.entries(refusal.fields).map(([k, v]) => `${k}: ${v}`),
      ),
    );
  if (refusal) return sendError(reply, refusal);
  // The code only: fastify's router quotes the URL's parts in its messages.
  req.log.error({ code: err.code ?? null }, 'framework error');
  return sendError(reply, errors.internal());
}

/**
 * Node's HTTP parser refuses some requests before fastify sees them (headers over the size
 * limit, a bad Content-Length or method, a request that took too long). Fastify's default
 * answer is its own body; this writes the public error body as a raw HTTP response and closes.
 */
export function clientErrorHandler(this: { log: { debug(o: object, m: string): void } }, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The code only: Node's parser errors carry the raw bytes read (rawPacket), Authorization included.
  this.log.debug({ code: err.code ?? null }, 'client error');
  // A response already under way cannot be replaced by another one.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !started) socket.write(rawErrorResponse(err.code));
  socket.destroy();
}

/** The whole HTTP/1.1 response for a parser error code, with the public error body. */
function rawErrorResponse(parserCode: string | undefined): string {
  let status: number;
  let error: AppError;
  if (parserCode === 'HPE_HEADER_OVERFLOW') {
    error = new AppError('headers_too_large', undefined, { headers: 'are too large' });
    status = ERROR_TABLE.headers_too_large.http;
  } else if (parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // 408 has no row of its own: the body is the generic 13000 naming what went wrong.
    error = errors.invalid({ request: 'was not received in time' });
    status = 408;
  } else {
    error = errors.invalid({ request: 'is not valid HTTP' });
    status = 400;
  }
  const body = JSON.stringify(errorBody(error));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${META.requestId}: ${newRequestId()}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
