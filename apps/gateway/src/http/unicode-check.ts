import { errors, loneSurrogatePath } from '@feedback/kit-core';
import type { FastifyInstance } from 'fastify';

/**
 * A JSON body with a lone UTF-16 surrogate (`"\ud800"`) is refused here, naming the field: the
 * gRPC encoding on the way to a service would replace it with U+FFFD before the service's own
 * check could refuse it (docs/decisions.md).
 */
export function registerUnicodeCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined || req.body === null || typeof req.body !== 'object') return;
    const at = loneSurrogatePath(req.body);
    if (at !== undefined) throw errors.invalid({ [`body${at}`]: 'is not valid Unicode' });
  });
}
