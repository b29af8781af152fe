import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireOwnAccount, type Authenticator } from '../../http/auth.js';
import { collection, directoryView, envelope, pathId } from './files.views.js';
import type { FilesPort } from './files.port.js';
import { errorResponses } from '../../http/common.schemas.js';
import { AccountParams, DirectoryBody, DirectoryCollection, DirectoryEnvelope } from './files.schemas.js';

/** Create and list directories (docs/decisions.md "Directories"). */
export const directoriesRoutes =
  (deps: { files: FilesPort; auth: Authenticator }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const common = { tags: ['files'], security: [{ apiToken: [] }], params: AccountParams };
    const onRequest = [deps.auth(['api']), requireOwnAccount];

    app.post(
      '/v2/file_service/:account_id/directories',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'Create a file directory',
          operationId: 'createDirectory',
          description: 'Names are unique per account: a second directory of the same name answers 409 / 13003.',
          body: DirectoryBody,
          response: { 201: DirectoryEnvelope, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (req, reply) => {
        const { directory } = await deps.files.createDirectory({ accountId: req.params.account_id, name: req.body.name });
        return reply.status(201).send(envelope(`/v2/file_service/${pathId(req.params.account_id)}`, directoryView(directory)));
      },
    );

    app.get(
      '/v2/file_service/:account_id/directories',
      {
        onRequest,
        schema: {
          ...common,
          summary: 'List directories',
          operationId: 'listDirectories',
          description: "The account's directories, not paginated. `account_id` must be the token's own account (403 / 13013 otherwise).",
          response: { 200: DirectoryCollection, ...errorResponses(401, 403) },
        },
      },
      async (req) => {
        const { directories } = await deps.files.listDirectories({ accountId: req.params.account_id });
        return collection(`/v2/file_service/${pathId(req.params.account_id)}/directories`, directories.map(directoryView));
      },
    );
  };
