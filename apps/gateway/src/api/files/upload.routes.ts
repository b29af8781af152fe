import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '@feedback/kit-core';
import type { FastifyRequest } from 'fastify';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { envelope, fileView, pathId } from './files.views.js';
import type { FilesPort } from './files.port.js';
import { MULTIPART_OVERHEAD_BYTES, receiveUpload, tooLarge } from './multipart-upload.js';
import { errorResponses } from '../../http/common.schemas.js';
import { DirectoryParams, FileEnvelope } from './files.schemas.js';

const SMALL_BODY_BYTES = 1024 * 1024;

/** The multipart body, for the OpenAPI document (the body is streamed, never validated as a whole). */
const UPLOAD_FORM = {
  type: 'object',
  required: ['file', 'filename'],
  properties: {
    file: { type: 'string', format: 'binary', description: "The bytes; the part's own Content-Type is kept." },
    filename: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "The entry's name: its last path segment, at most 200 bytes (UTF-8).",
    },
  },
};

export interface UploadRouteDeps {
  files: FilesPort;
  auth: Authenticator;
  publicBaseUrl: string;
  maxUploadBytes: number;
}

/**
 * The upload (docs/decisions.md "Uploads stream end to end"). Multipart parsing is registered in this plugin only, so no other route accepts
 * multipart bodies.
 */
export const uploadRoutes =
  (deps: UploadRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(multipart);

    // Cheap refusals before a byte of the body is read.
    const checkHeaders = async (req: FastifyRequest) => {
      if (!/^multipart\/form-data\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        throw errors.unsupportedMediaType({ 'content-type': 'must be multipart/form-data' });
      }
      const declared = Number(req.headers['content-length']);
      if (declared > deps.maxUploadBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(deps.maxUploadBytes);
    };

    // An error answered before the body was read: close the connection rather than read (and
    // discard) what may be a gigabyte still on its way. A small rest is read and dropped instead,
    // keeping the connection: closing under a client still sending makes some clients (undici)
    // report a failed request instead of our answer.
    app.addHook('onSend', async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      const smallRest = Number.isFinite(declared) && declared <= SMALL_BODY_BYTES;
      if (reply.statusCode >= 400 && !req.raw.complete && !smallRest) reply.header('connection', 'close');
    });

    app.post(
      '/v2/file_service/directory/:directory_id/files',
      {
        onRequest: [deps.auth(['api']), checkHeaders],
        config: { openapiBody: UPLOAD_FORM },
        schema: {
          tags: ['files'],
          security: [{ apiToken: [] }],
          summary: 'Upload a file',
          operationId: 'uploadFile',
          description:
            "multipart/form-data with `file` (the bytes) and `filename` (the entry's name), in either order. " +
            `Streamed to storage; at most ${deps.maxUploadBytes} bytes (413 / 13004 above). Returns 201 with the entry.`,
          consumes: ['multipart/form-data'],
          params: DirectoryParams,
          response: { 201: FileEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415) },
        },
      },
      async (req, reply) => {
        const principal = principalOf(req);
        const directoryId = req.params.directory_id;
        const file = await receiveUpload(
          req,
          deps.files,
          { accountId: principal.accountId, directoryId, userId: principal.tokenId },
          deps.maxUploadBytes,
        );
        return reply
          .status(201)
          .send(envelope(`/v2/file_service/directory/${pathId(directoryId)}/files`, fileView(deps.publicBaseUrl)(file)));
      },
    );
  };
