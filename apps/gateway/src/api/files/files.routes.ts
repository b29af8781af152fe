import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf, type Authenticator } from '../../http/auth.js';
import { collection, envelope, fileView, pathId } from './files.views.js';
import type { FilesPort } from './files.port.js';
import { errorResponses } from '../../http/common.schemas.js';
import { DirectoryParams, FileCollection, FileEnvelope, FileParams } from './files.schemas.js';

/** List, show and delete files (docs/api.md; the upload is upload.routes.ts). Another account's ids answer 404 like unknown ones. */
export const filesRoutes =
  (deps: { files: FilesPort; auth: Authenticator; publicBaseUrl: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['files'], security: [{ apiToken: [] }] };
    const onRequest = deps.auth(['api']);
    const view = fileView(deps.publicBaseUrl);
    const filesPath = (directoryId: string) => `/v2/file_service/directory/${pathId(directoryId)}/files`;

    app.get(
      '/v2/file_service/directory/:directory_id/files',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'List files',
          operationId: 'listFiles',
          description:
            "Every file of the directory, expired ones included (their `expired_at` set, their bytes gone), not paginated. An unknown directory, or another account's, answers 404.",
          params: DirectoryParams,
          response: { 200: FileCollection, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const { files } = await deps.files.listFiles({ accountId: principalOf(req).accountId, directoryId: req.params.directory_id });
        return collection(filesPath(req.params.directory_id), files.map(view));
      },
    );

    app.get(
      '/v2/file_service/directory/:directory_id/files/:file_entry_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'View file detail',
          operationId: 'getFile',
          description: "One file entry with its public URL. An unknown id, or another account's, answers 404.",
          params: FileParams,
          response: { 200: FileEnvelope, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const { directory_id, file_entry_id } = req.params;
        const { file } = await deps.files.getFile({
          accountId: principalOf(req).accountId,
          directoryId: directory_id,
          fileId: file_entry_id,
        });
        return envelope(`${filesPath(directory_id)}/${pathId(file_entry_id)}`, view(file));
      },
    );

    app.delete(
      '/v2/file_service/directory/:directory_id/files/:file_entry_id',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Delete a file',
          operationId: 'deleteFile',
          description: 'Removes the entry and its bytes; answers the deleted entry. Its URL answers 404 afterwards.',
          params: FileParams,
          response: { 200: FileEnvelope, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const { directory_id, file_entry_id } = req.params;
        const { file } = await deps.files.deleteFile({
          accountId: principalOf(req).accountId,
          directoryId: directory_id,
          fileId: file_entry_id,
        });
        return envelope(`${filesPath(directory_id)}/${pathId(file_entry_id)}`, view(file));
      },
    );
  };
