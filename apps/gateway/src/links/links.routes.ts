import { type FastifyPluginAsyncTypebox, type Static, Type } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../accounts/domain/authenticate.js';
import type { TokenRepository } from '../accounts/domain/ports.js';
import { authorizationHeader } from '../http/auth.js';
import { ErrorBodySchema, errorResponses } from '../http/common.schemas.js';
import type { ClientRateLimiter, ShortenPort } from './links.port.js';
import { shortenBody, ShortenedLinkSchema } from './links.schemas.js';
import { ClickLimit } from './click-limit.js';
import { requestHost, type ResolvedLink } from './link.resolver.js';
import { ruleVerdict, type LinkRulesDeps } from './link-rules.js';
import { EXPIRED_PAGE, redirectHeaders, SHORT_CODE } from './redirect.views.js';

export interface LinkRoutesDeps {
  shortener: ShortenPort;
  links: { link(code: string, requestId?: string, host?: string): Promise<ResolvedLink | null> };
  /** Every redirect answered goes here; it decides which are clicks (click-filter.ts). */
  clicks: LinkRulesDeps['clicks'];
  /** The click limits of links with max_clicks (click-limit.ts); left out, counted in process. */
  limit?: LinkRulesDeps['limit'];
  limiter: ClientRateLimiter;
  redirectStatus: 301 | 302 | 303 | 307 | 308;
  /** Longest URL POST /shorten takes (the shortener's MAX_URL_LENGTH); default 2048. */
  maxUrlLength?: number;
  /** Who holds an API token: POST /shorten naming a customer domain needs its owner's. */
  tokens: Pick<TokenRepository, 'findByHash'>;
  /** The service's own short domain (PUBLIC_SHORTENER_URL's host): naming it needs no token. */
  ownDomain?: string;
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
    app.addSchema(ShortenedLinkSchema);
    const rulesDeps: LinkRulesDeps = { now: Date.now, clicks: deps.clicks, limit: deps.limit ?? new ClickLimit(null, app.log) };

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

    // A customer domain carries its owner's brand: naming one needs that account's API token
    // (docs/api.md "Short links"; the shortener checks the ownership). Only the body says whether
    // one is named, so this runs once it is parsed but before it is validated: without the token
    // a caller learns nothing else about its request. Without a domain no token is read at all.
    const domainOwner = async (req: FastifyRequest) => {
      const domain = (req.body as { domain?: unknown } | null)?.domain;
      if (typeof domain !== 'string' || domain === '' || domain.toLowerCase().replace(/\.$/, '') === deps.ownDomain) return;
      req.principal = await authenticate(deps.tokens, authorizationHeader(req), ['api']);
    };

    app.post(
      '/shorten',
      {
        onRequest: rateLimit,
        preValidation: domainOwner,
        schema: {
          tags: ['links'],
          summary: 'Shorten a URL',
          operationId: 'shortenUrl',
          description:
            'Limited per client IP (429 with Retry-After). http and https only, at most MAX_URL_LENGTH characters, never a short link domain itself. The URL is kept exactly as given. The optional `title`, `tags`, `expires_at`, `max_clicks` and `expired_url` are stored on the link and shown in the answer (docs/api.md "Expiry and click limits"). Without `domain` no token is needed; naming a customer domain needs the API token of the account that owns it (`Token token=<API_TOKEN>`): 401 without a valid one, 403 for another account\'s token or a token of another kind.',
          security: [{}, { apiToken: [] }],
          body: shortenBody(deps.maxUrlLength),
          response: {
            200: Type.Unsafe<Static<typeof ShortenedLinkSchema>>({ $ref: 'ShortenedLink#' }),
            ...errorResponses(400, 401, 403, 413, 415, 429),
          },
        },
      },
      async (req) => {
        const b = req.body;
        const { link } = await deps.shortener.shorten(
          {
            url: b.url,
            domain: b.domain ?? '',
            accountId: req.principal?.accountId ?? '',
            title: b.title,
            ...(b.tags !== undefined && { tags: { tags: b.tags } }),
            expiresAt: b.expires_at,
            maxClicks: b.max_clicks,
            expiredUrl: b.expired_url,
          },
          { context: { requestId: req.id } },
        );
        if (!link) throw new Error('shortener answered without a link');
        return {
          id: link.code,
          fullUrl: link.fullUrl,
          shortUrl: link.shortUrl,
          createdAt: link.createdAt,
          ...(link.title !== undefined && { title: link.title }),
          ...(link.tags !== undefined && { tags: link.tags.tags }),
          ...(link.expiresAt !== undefined && { expires_at: link.expiresAt }),
          ...(link.maxClicks !== undefined && { max_clicks: link.maxClicks }),
          ...(link.expiredUrl !== undefined && { expired_url: link.expiredUrl }),
        };
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
          operationId: 'followShortLink',
          security: [],
          description:
            "Redirects to the full URL (302 by default, REDIRECT_STATUS), the same for every caller. Only a person's first GET of a code in a minute counts as a click: not HEAD, nor crawlers, link-preview fetchers (iMessage, WhatsApp...), tools (curl) or a request without a User-Agent. A customer domain (the Host) serves only the links made for it, and a link made for one is served only there; a link made without a domain is served on every other host. An unknown or malformed code (over 200 characters included), or one not served on this host, answers a small HTML page, never JSON. Past its `expires_at`, or once its `max_clicks` counted clicks are used up, a link answers 302 to its `expired_url`, or a 410 HTML page without one.",
          response: {
            302: { description: 'Redirect; `Location` is the full URL (ASCII form).', type: 'null' },
            404: { description: 'No such link.', content: { 'text/html': { schema: { type: 'string' } } } },
            410: {
              description:
                'The link expired (`expires_at`) or used up its clicks (`max_clicks`) and has no `expired_url` (with one: 302 to it).',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (req, reply) => {
        const code = req.params.code;
        // The Host decides too: a customer domain serves only the links made for it.
        const link = SHORT_CODE.test(code) ? await deps.links.link(code, req.id, requestHost(req.headers.host)) : null;
        if (link === null) return notFoundPage(reply);
        if (link.rules && (await ruleVerdict(rulesDeps, code, link.rules, req.raw)) === 'expired') {
          // Always 302 to the expired URL: a permanent redirect would outlive a PATCH renewing the link.
          if (link.rules.expiredUrl) return reply.code(302).headers(redirectHeaders(link.rules.expiredUrl, 302)).send();
          return reply.code(410).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(EXPIRED_PAGE);
        }
        if (!link.rules) deps.clicks.record(code, req.raw);
        return reply.code(deps.redirectStatus).headers(redirectHeaders(link.fullUrl, deps.redirectStatus)).send();
      },
    );
  };
