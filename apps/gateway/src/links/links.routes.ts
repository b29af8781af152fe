import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBodySchema, errorResponses } from '../http/common.schemas.js';
import type { ClientRateLimiter, ShortenPort } from './links.port.js';
import { shortenBody, ShortenedLinkSchema } from './links.schemas.js';
import { redirectHeaders, SHORT_CODE } from './redirect.views.js';

export interface LinkRoutesDeps {
  shortener: ShortenPort;
  links: { fullUrl(code: string, requestId?: string): Promise<string | null> };
  clicks: { record(code: string): void };
  limiter: ClientRateLimiter;
  redirectStatus: 301 | 302 | 303 | 307 | 308;
  /** Longest URL POST /shorten takes (the shortener's MAX_URL_LENGTH); default 2048. */
  maxUrlLength?: number;
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head>' +
  '<body><h1>Link not found</h1><p>This short link does not exist. Check the address and try again.</p></body></html>\n';

export function notFoundPage(reply: FastifyReply) {
  return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
}

/** The link listener's routes ({shortener_url}): POST /shorten and GET /{code}. */
export const linkRoutes =
  (deps: LinkRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // JSON only (docs/decisions.md "POST /shorten"): a text/plain body is refused with 415 rather than half-parsed.
    app.removeContentTypeParser('text/plain');
    app.addSchema(ErrorBodySchema);

    // Runs before the body is read, so refused callers cost no parsing.
    const rateLimit = async (req: FastifyRequest, reply: FastifyReply) => {
      const d = await deps.limiter.consume(req.ip);
      if (d.exempt) return;
      reply.header('ratelimit-policy', `"shorten";q=${d.limit};w=${d.windowSec}`);
      reply.header('ratelimit', `"shorten";r=${Math.max(0, d.remaining)};t=${Math.ceil(d.resetMs / 1000)}`);
      if (!d.allowed) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(d.resetMs / 1000))));
        throw errors.rateLimited();
      }
    };

    app.post(
      '/shorten',
      {
        onRequest: rateLimit,
        schema: {
          tags: ['links'],
          summary: 'Shorten a URL',
          description:
            'No authentication; limited per client IP (429 with Retry-After). http and https only, at most MAX_URL_LENGTH characters, never the short domain itself. The URL is kept exactly as given.',
          body: shortenBody(deps.maxUrlLength),
          response: { 200: ShortenedLinkSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req) => {
        const { link } = await deps.shortener.shorten(
          { url: req.body.url, domain: req.body.domain ?? '', accountId: '' },
          { context: { requestId: req.id } },
        );
        if (!link) throw new Error('shortener answered without a link');
        return { id: link.code, fullUrl: link.fullUrl, shortUrl: link.shortUrl, createdAt: link.createdAt };
      },
    );

    app.get<{ Params: { code: string } }>(
      '/:code',
      // One log line per tap would cost more than the redirect itself; clicks are events instead.
      // No params schema: a malformed code must answer the 404 page, not a 400 in JSON.
      {
        logLevel: 'warn',
        config: { swagger: { exposeHeadRoute: true } },
        schema: {
          tags: ['links'],
          summary: 'Follow a short link',
          description:
            'Redirects to the full URL (302 by default, REDIRECT_STATUS); HEAD answers the same without counting a click. An unknown or malformed code (over 200 characters included) answers a small HTML page, never JSON.',
          response: {
            302: { description: 'Redirect; `Location` is the full URL (ASCII form).', type: 'null' },
            404: { description: 'No such link.', content: { 'text/html': { schema: { type: 'string' } } } },
          },
        },
      },
      async (req, reply) => {
        const code = req.params.code;
        const fullUrl = SHORT_CODE.test(code) ? await deps.links.fullUrl(code, req.id) : null;
        if (fullUrl === null) return notFoundPage(reply);
        if (req.method === 'GET') deps.clicks.record(code);
        return reply.code(deps.redirectStatus).headers(redirectHeaders(fullUrl, deps.redirectStatus)).send();
      },
    );
  };
