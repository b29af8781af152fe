import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { ErrorBodySchema } from '../http/common.schemas.js';
import { requestHost } from './link.resolver.js';
import { notFoundPage } from './links.routes.js';
import type { QrCodeCache, QrFormat } from './qr-code.cache.js';
import { SHORT_CODE } from './redirect.views.js';

export interface QrRoutesDeps {
  codes: Pick<QrCodeCache, 'image'>;
}

/** Defaults and bounds of GET /{code}/qr (docs/api.md "QR codes"). */
export const QR_DEFAULTS = { format: 'svg' as QrFormat, size: 300, margin: 4 };

// Strings with patterns: the validator does not coerce types, and a query string only has text.
export const QrQuery = Type.Object(
  {
    format: Type.Optional(Type.Unsafe<QrFormat>({ type: 'string', enum: ['svg', 'png'], description: 'svg (default) or png.' })),
    size: Type.Optional(
      Type.String({
        pattern: '^(?:[5-9][0-9]|[1-9][0-9]{2}|1000)$',
        description:
          'Width and height of the image in pixels, 50-1000, default 300. Smaller than the symbol with its margin (one pixel a module), the image is drawn at four pixels a module instead.',
        examples: ['600'],
      }),
    ),
    margin: Type.Optional(
      Type.String({
        pattern: '^(?:1?[0-9]|20)$',
        description: 'Quiet zone around the symbol in modules, 0-20, default 4.',
        examples: ['2'],
      }),
    ),
  },
  { additionalProperties: false },
);

/** For the OpenAPI document only (images are sent as they are, never serialized); typed loosely so replies are too. */
const QR_RESPONSES: Record<number, unknown> = {
  200: {
    description: 'The image, `Content-Type` image/svg+xml or image/png.',
    content: { 'image/svg+xml': { schema: { type: 'string' } }, 'image/png': { schema: { type: 'string', format: 'binary' } } },
  },
  404: { description: 'No such link.', content: { 'text/html': { schema: { type: 'string' } } } },
};

/**
 * An image of a link cannot change (its short URL never does), so clients and caches in between
 * may keep it a day; a new link gets its own URL.
 */
const IMAGE_CACHE_CONTROL = 'public, max-age=86400';

/** GET /{code}/qr on the link listener: a QR code of the short URL, never a click. */
export const qrRoutes =
  (deps: QrRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(ErrorBodySchema);
    app.get(
      '/:code/qr',
      {
        logLevel: 'warn',
        schema: {
          tags: ['links'],
          summary: 'QR code of a short link',
          operationId: 'shortLinkQrCode',
          security: [],
          description:
            "A QR code that encodes the link's short URL (on its customer domain for a link made for one), as SVG or PNG; the same image for every caller, cacheable for a day. Never counted as a click. An unknown or malformed code, or one not served on this host, answers the same HTML page as its redirect would; a bad format, size or margin 400 naming it.",
          querystring: QrQuery,
          response: QR_RESPONSES,
        },
      },
      async (req, reply) => {
        const { code } = req.params as { code: string };
        const image = SHORT_CODE.test(code)
          ? await deps.codes.image(
              {
                code,
                host: requestHost(req.headers.host),
                format: req.query.format ?? QR_DEFAULTS.format,
                size: req.query.size ? Number(req.query.size) : QR_DEFAULTS.size,
                margin: req.query.margin ? Number(req.query.margin) : QR_DEFAULTS.margin,
              },
              { context: { requestId: req.id } },
            )
          : null;
        if (!image) return notFoundPage(reply);
        return reply.header('cache-control', IMAGE_CACHE_CONTROL).type(image.contentType).send(image.body);
      },
    );
  };
