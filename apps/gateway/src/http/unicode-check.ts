import { errors, loneSurrogatePath } from '@feedback/kit-core';
import type { FastifyInstance } from 'fastify';

/**
 * A JSON body with a lone UTF-16 surrogate (`"\ud800"`) is refused here, naming the field: the
 * gRPC encoding on the way to a service would replace it with U+FFFD before the service's own
 * check could refuse it (docs/decisions.md).
 */
export function registerUnicodeCheck(app: FastifyInstance) {
  // A callback hook, not an async one: every request passes here, and an async hook costs a
  // promise and a turn of the microtask queue even when there is no body to look at.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined || req.body === null || typeof req.body !== 'object') return done();
    const at = loneSurrogatePath(req.body);
    done(at === undefined ? undefined : errors.invalid({ [`body${at}`]: 'is not valid Unicode' }));
  });
}
