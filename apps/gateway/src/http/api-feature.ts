import type { TSchema } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Authenticator } from './auth.js';

/** What the API listener hands every feature: the shared plumbing, nothing of another feature. */
export interface ApiContext {
  /** An onRequest hook admitting the given token kinds (401 without a valid token, 403 for a token of another kind). */
  auth: Authenticator;
}

/**
 * One public feature of the API listener (a folder under src/api/): its shared schemas and
 * its routes. buildApi registers the features in the order main.ts lists them.
 */
export interface ApiFeature {
  /** Schemas with an `$id` that routes refer to (`{$ref: 'Id#'}`); one id may come from several features. */
  schemas?: TSchema[];
  /** Routes called with an account's token. */
  routes?: (ctx: ApiContext) => FastifyPluginAsync;
  /** Routes under /admin/v1, behind the deployment's ADMIN_TOKEN. */
  adminRoutes?: FastifyPluginAsync;
}
