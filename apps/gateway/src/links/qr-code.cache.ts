import { AppError, errors } from '@feedback/kit-core';
import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';
import type { CallContext, ResolvePort } from './links.port.js';

export type QrFormat = 'svg' | 'png';

/** One QR code image: a link's code asked on a host (requestHost), drawn as asked. */
export interface QrRequest {
  code: string;
  host: string;
  format: QrFormat;
  /** Width and height in pixels. */
  size: number;
  /** Quiet zone around the symbol, in modules. */
  margin: number;
}

export interface QrImage {
  body: Buffer;
  contentType: string;
}

export interface QrCodeCacheOptions {
  /** Bytes of images kept in process. */
  maxBytes: number;
  /** How long an image is kept; a link's short URL never changes, so this only bounds memory. */
  ttlMs: number;
  /** How long an unknown code is remembered (a burst of scans of a mistyped link). */
  missTtlMs: number;
}

type Entry = { image: QrImage | null };

const CONTENT_TYPES: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' };

/**
 * The QR code images of short links, each encoding the link's own short URL (its customer
 * domain's when it has one), asked of the shortener with the Host like a redirect, so a code
 * not served on that host has no image either. Images are kept by host, code, format, size and
 * margin; concurrent misses of one key share one lookup and one drawing (lru-cache's fetch).
 * Nothing here is a click.
 */
export class QrCodeCache {
  private readonly cache: LRUCache<string, Entry, CallContext>;

  constructor(
    shortener: ResolvePort,
    private readonly opts: QrCodeCacheOptions,
  ) {
    this.cache = new LRUCache<string, Entry, CallContext>({
      maxSize: opts.maxBytes,
      sizeCalculation: (entry, key) => key.length + (entry.image?.body.length ?? 0),
      ttl: opts.ttlMs,
      fetchMethod: async (key, _stale, { options, context }) => {
        const req = JSON.parse(key) as QrRequest;
        try {
          const { link } = await shortener.resolve({ code: req.code, host: req.host }, context);
          if (!link) throw errors.internal('shortener answered without a link');
          return { image: await draw(link.shortUrl, req) };
        } catch (err) {
          if (!(err instanceof AppError) || err.kind !== 'not_found') throw err;
          options.ttl = this.opts.missTtlMs;
          return { image: null };
        }
      },
    });
  }

  /** The image, or null when the code is unknown or not served on the host. */
  async image(req: QrRequest, call: CallContext = {}): Promise<QrImage | null> {
    const { code, host, format, size, margin } = req;
    const key = JSON.stringify({ code, host, format, size, margin } satisfies QrRequest);
    const entry = this.cache.get(key) ?? (await this.cache.fetch(key, { context: call }));
    return entry?.image ?? null;
  }
}

/**
 * pngjs's default adaptive filter tries five filters on every row, most of the drawing's time on
 * the link listener's thread (which also answers redirects); a QR code's rows repeat, so the
 * "up" filter (2) with zlib's default strategy compresses as well in a fraction of the time.
 * qrcode hands these options to pngjs as they are.
 */
const PNG_OPTIONS = { filterType: 2, deflateStrategy: 0, deflateLevel: 6 } as { deflateLevel: number };

async function draw(shortUrl: string, req: QrRequest): Promise<QrImage> {
  const common = { width: req.size, margin: req.margin, errorCorrectionLevel: 'M' } as const;
  const body =
    req.format === 'png'
      ? await QRCode.toBuffer(shortUrl, { ...common, type: 'png', rendererOpts: PNG_OPTIONS })
      : Buffer.from(await QRCode.toString(shortUrl, { ...common, type: 'svg' }));
  return { body, contentType: CONTENT_TYPES[req.format] };
}
