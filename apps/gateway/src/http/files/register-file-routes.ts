import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth.js';
import { blobsRoutes } from '../routes/blobs.routes.js';
import { directoriesRoutes } from '../routes/directories.routes.js';
import { filesRoutes } from '../routes/files.routes.js';
import { uploadRoutes } from '../routes/upload.routes.js';
import { fileSchemas } from '../schemas/file.schemas.js';
import type { FilesPort } from './files.port.js';

export interface FileRoutesDeps {
  files: FilesPort;
  /** Absolute base of the blob URLs in file entries (the API's public address). */
  publicBaseUrl: string;
  maxUploadBytes: number;
}

/** The file service's routes (spec 4.3 to 4.8) and the public blob URLs. */
export async function registerFileRoutes(app: FastifyInstance, deps: FileRoutesDeps & { auth: Authenticator }) {
  for (const schema of fileSchemas) app.addSchema(schema);
  await app.register(directoriesRoutes(deps));
  await app.register(filesRoutes(deps));
  await app.register(uploadRoutes(deps));
  await app.register(blobsRoutes(deps));
}
