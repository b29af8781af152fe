import { AppError } from '@feedback/kit-core';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth.js';

/** After authentication: an account_id in the path must be the caller's own (403, no data). */
export async function requireOwnAccount(req: FastifyRequest) {
  const { account_id } = req.params as { account_id?: string };
  if (account_id !== principalOf(req).accountId) throw new AppError('permission_denied');
}
