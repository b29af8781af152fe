import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { errorResponses } from '../../http/common.schemas.js';
import type { FastifyReply } from 'fastify';
import type { FlowViewBytes, FlowViewCache } from './flow-view.cache.js';

/**
 * Flows never change, so a flow's id (and the version of its view) names its representation:
 * a strong ETag without hashing the body. A poller that sends it back gets 304 and no body,
 * after the same token and account checks as a full answer (a 304 never confirms a foreign id).
 */
const FLOW_VIEW_VERSION = 'v1';
const flowEtag = (flowId: string) => `"flow-${FLOW_VIEW_VERSION}-${flowId}"`;

/** RFC 9110 If-None-Match: weak comparison against a list of entity tags, or `*`. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

export const flowsRoutes =
  (deps: { flowViews: Pick<FlowViewCache, 'peek' | 'load'>; auth: Authenticator }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/external/v1/flows/:flow_id',
      {
        onRequest: deps.auth(['api', 'integration']),
        schema: {
          tags: ['flows'],
          summary: 'Show flow details',
          operationId: 'getFlow',
          description: "One flow of the caller's account with its questions and answer options. Either token kind works.",
          security: [{ integrationToken: [] }, { apiToken: [] }],
          params: Type.Object({ flow_id: Type.String({ minLength: 1, maxLength: 100 }) }),
          headers: Type.Object({
            'if-none-match': Type.Optional(Type.String({ description: 'An ETag from an earlier answer: 304 when it still matches.' })),
          }),
          response: {
            200: Type.Unsafe({ $ref: 'Flow#' }),
            304: Type.Null({ description: 'Not modified: the ETag sent in If-None-Match still names this flow.' }),
            ...errorResponses(401, 404),
          },
        },
      },
      // Not async: a cached flow is answered in the same turn, without a promise.
      (req, reply) => {
        const accountId = principalOf(req).accountId;
        const ifNoneMatch = req.headers['if-none-match'];
        const hit = deps.flowViews.peek(accountId, req.params.flow_id);
        if (hit) return sendFlow(reply, hit, ifNoneMatch);
        return deps.flowViews.load(accountId, req.params.flow_id).then((view) => sendFlow(reply, view, ifNoneMatch));
      },
    );
  };

/** The view's bytes as they are (serialized once, when cached), or 304 when the poller has them. */
function sendFlow(reply: FastifyReply, view: FlowViewBytes, ifNoneMatch: string | undefined) {
  const etag = flowEtag(view.id);
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (matchesIfNoneMatch(ifNoneMatch, etag)) return reply.code(304).send(null);
  return reply.type('application/json; charset=utf-8').send(view.json);
}
