import { errors, loneSurrogatePath } from '@feedback/kit-core';
import type { FastifyInstance } from 'fastify';
import { decodeUtf8, invalidQueryParameter, jsonNestedDeeperThan, MAX_JSON_DEPTH } from './strict-text.js';

/**
 * Text a request carries is refused, naming where, unless it is valid Unicode: a JSON body or a
 * query string with bytes that are not UTF-8, a JSON string with a lone UTF-16 surrogate
 * (`"\ud800"`). Left alone, Node and the gRPC encoding on the way to a service would replace
 * either with U+FFFD and the service would store the replacement (docs/decisions.md). JSON
 * nested deeper than MAX_JSON_DEPTH is refused before it is parsed (docs/api.md "JSON bodies").
 */
export function registerUnicodeCheck(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    const text = decodeUtf8(bytes);
    if (text === undefined) return done(errors.invalid({ body: 'is not valid UTF-8' }), undefined);
    if (jsonNestedDeeperThan(bytes, MAX_JSON_DEPTH)) {
      return done(errors.invalid({ body: `is nested too deeply (at most ${MAX_JSON_DEPTH} levels of arrays and objects)` }), undefined);
    }
    parseJson(req, text, done);
  });

  app.addHook('onRequest', (req, _reply, done) => {
    const q = req.url.indexOf('?');
    const bad = q === -1 ? undefined : invalidQueryParameter(req.url.slice(q + 1));
    done(bad === undefined ? undefined : errors.invalid({ [bad ? `querystring.${bad}` : 'querystring']: 'is not valid UTF-8' }));
  });

  // A callback hook, not an async one: every request passes here, and an async hook costs a
  // promise and a turn of the microtask queue even when there is no body to look at.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined || req.body === null || typeof req.body !== 'object') return done();
    const at = loneSurrogatePath(req.body);
    done(at === undefined ? undefined : errors.invalid({ [`body${at}`]: 'is not valid Unicode' }));
  });
}
