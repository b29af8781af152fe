import { createHash } from 'node:crypto';
import { AppError, errorBody, type Clock } from '@feedback/kit-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/auth.js';
import type { IdempotencyKeys } from '../../accounts/domain/ports.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key record this request holds until its answer is stored. */
    idempotencyKeyId?: string;
    /** The key with the request's digest, for the service to derive what it creates from (same request, same resource). */
    idempotentRequestKey?: string;
  }
}

/** No row in ERROR_TABLE: these exist only at the HTTP edge (docs/errors.md). */
const IDEMPOTENCY_CODES = { mismatch: 13030, inFlight: 13031 } as const;

const MISMATCH_MESSAGE = 'Idempotency key already used for another request';
const IN_FLIGHT_MESSAGE = 'A request with this idempotency key is still in progress';

/**
 * Idempotency-Key with Stripe's semantics, per account and route: the first request with a key
 * runs and its answer (status and body) is kept 24 h; the same key with the same request replays
 * that answer with `Idempotent-Replayed: true`; with another request it is 422; while the first
 * is still running, 409. Requests refused before the handler (401, 429, a 400 of validation)
 * claim nothing; a 5xx releases the key so the caller may retry it. A 5xx may still have done its
 * work (stored, published, then the answer lost), so the handler hands `idempotentRequestKey` to
 * the service, which makes the retry of the same request the same resource.
 */
export function idempotencyHooks(deps: { keys: IdempotencyKeys; clock: Clock; scope: string }) {
  return {
    async preHandler(req: FastifyRequest, reply: FastifyReply) {
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string') return;
      const id = `${principalOf(req).accountId}:${deps.scope}:${key}`;
      const hash = requestHash(req);
      const claim = await deps.keys.claim(id, hash, deps.clock.now());
      switch (claim.outcome) {
        case 'claimed':
          req.idempotencyKeyId = id;
          req.idempotentRequestKey = `${deps.scope}:${key}:${hash}`;
          return;
        case 'replay':
          return reply
            .status(claim.answer.status)
            .header('idempotent-replayed', 'true')
            .type(claim.answer.contentType)
            .send(claim.answer.body);
        case 'mismatch': {
          // 422 is no kind of ERROR_TABLE; the body is the usual one.
          const err = new AppError(
            'invalid',
            MISMATCH_MESSAGE,
            { 'idempotency-key': 'was used with a different request body or path' },
            IDEMPOTENCY_CODES.mismatch,
          );
          return reply.status(422).type('application/json; charset=utf-8').send(errorBody(err));
        }
        case 'in_flight':
          throw new AppError(
            'conflict',
            IN_FLIGHT_MESSAGE,
            { 'idempotency-key': 'retry once the first request has answered' },
            IDEMPOTENCY_CODES.inFlight,
          );
      }
    },

    async onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const id = req.idempotencyKeyId;
      if (!id) return payload;
      req.idempotencyKeyId = undefined;
      try {
        if (reply.statusCode >= 500) await deps.keys.release(id);
        else {
          const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
          await deps.keys.complete(id, { status: reply.statusCode, body: String(payload ?? ''), contentType }, deps.clock.now());
        }
      } catch (err) {
        // The answer still goes out; a retry with the key then waits for the lease (409) and runs again.
        req.log.error({ err }, 'could not store the idempotent answer');
      }
      return payload;
    },
  };
}

/** The path (campaign included) and the body, keys sorted: the same JSON written in another order is the same request. */
function requestHash(req: FastifyRequest): string {
  const path = req.url.split('?')[0];
  return createHash('sha256')
    .update(`${req.method} ${path}\n${canonicalJson(req.body)}`)
    .digest('base64url');
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
