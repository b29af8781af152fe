import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorBody, errors } from '@feedback/kit-core';
import type { FilesPort, OpenedBlob } from './files.port.js';
import { parseRangeHeader } from './range-header.js';
import { errorResponses } from '../../http/common.schemas.js';
import { BlobParams } from './files.schemas.js';

/** 416 has no row in ERROR_TABLE: it exists only here, at the HTTP edge (docs/errors.md). */
const RANGE_NOT_SATISFIABLE_CODE = 13020;

// A file is answered with its stored content type (the file service's resolveContentType): the
// type declared for the uploaded part, else one guessed from the file name, else
// application/octet-stream. So any media type, hence the */* range.
const bytes = { schema: { type: 'string', format: 'binary' } };
const binary = (description: string) => ({ description, content: { 'application/octet-stream': bytes, '*/*': bytes } });
/** For the OpenAPI document only (the bytes are streamed, never serialized); typed loosely so replies are too. */
const BLOB_RESPONSES: Record<number, unknown> = {
  200: binary(
    'The whole file (HEAD: the same headers, no bytes). `Content-Type` is the stored type: the one declared at upload, else one guessed from the file name (e.g. text/csv), else application/octet-stream.',
  ),
  206: binary('The requested byte range (`Content-Range`).'),
  ...errorResponses(404, 410, 416),
};

/** ASCII fallback plus the RFC 6266 / 8187 UTF-8 form, so any filename survives the header. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The public blob URL: no token (the blob token in the path is the secret), streamed from the
 * file service as the client reads, with Content-Length, single byte ranges and HEAD. Files are
 * served as attachments in a sandbox, so an uploaded HTML page cannot run on the API's origin.
 */
export const blobsRoutes =
  (deps: { files: FilesPort }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/public/v2/storage/blobs/:blob_token/:filename',
      {
        config: { swagger: { exposeHeadRoute: true } }, // HEAD is part of the contract here
        schema: {
          tags: ['files'],
          summary: 'Download a file (public URL)',
          operationId: 'downloadBlob',
          security: [],
          description:
            'The `url` / `proxy_url` of a file entry. Supports HEAD and single `Range: bytes=` requests. 410 once the file expired, 404 after deletion.',
          params: BlobParams,
          response: BLOB_RESPONSES,
        },
      },
      async (req, reply) => {
        const range = parseRangeHeader(req.headers.range);
        const ask = (withRange: boolean) =>
          deps.files.openBlob({ blobToken: req.params.blob_token, ...(withRange ? range : {}), infoOnly: req.method === 'HEAD' });
        let blob: OpenedBlob = await ask(range !== undefined);
        const etag = `"${blob.info.sha256}"`;
        const ifRange = req.headers['if-range'];
        if (range && ifRange !== undefined && ifRange !== etag) {
          blob.body.destroy(); // a stale validator: RFC 9110 says send it all
          blob = await ask(false);
        }
        const { info } = blob;
        reply
          .header('accept-ranges', 'bytes')
          .header('etag', etag)
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          .header('content-disposition', contentDisposition(info.filename));
        if (info.rangeNotSatisfiable) {
          blob.body.destroy();
          const err = errors.invalid({ range: `the file has ${info.size} bytes` }, 'Range not satisfiable', RANGE_NOT_SATISFIABLE_CODE);
          return reply
            .status(416)
            .header('content-range', `bytes */${info.size}`)
            .type('application/json; charset=utf-8')
            .send(errorBody(err));
        }
        reply.type(info.contentType).header('content-length', String(info.length));
        if (info.partial) reply.status(206).header('content-range', `bytes ${info.offset}-${info.offset + info.length - 1}/${info.size}`);
        return reply.send(blob.body);
      },
    );
  };
