import { createHash, timingSafeEqual } from 'node:crypto';
import { errors } from '@feedback/kit-core';
import type { FastifyRequest } from 'fastify';
import { authorizationHeader } from './auth.js';

/** Admin routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function makeAdminAuth(adminToken: string) {
  const want = createHash('sha256').update(adminToken).digest();
  return async (req: FastifyRequest) => {
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorizationHeader(req) ?? '');
    const got = createHash('sha256')
      .update(m?.[1] ?? '')
      .digest();
    if (!m || !timingSafeEqual(want, got)) throw errors.unauthenticated();
  };
}
