import type { ApiFeature } from '../../http/api-feature.js';
import { blobsRoutes } from './blobs.routes.js';
import { directoriesRoutes } from './directories.routes.js';
import type { FilesPort } from './files.port.js';
import { filesRoutes } from './files.routes.js';
import { fileSchemas } from './files.schemas.js';
import { uploadRoutes } from './upload.routes.js';

export interface FilesFeatureDeps {
  files: FilesPort;
  /** Absolute base of the blob URLs in file entries (the API's public address). */
  publicBaseUrl: string;
  maxUploadBytes: number;
}

/** The file service's routes (docs/api.md) and the public blob URLs. */
export function filesFeature(deps: FilesFeatureDeps): ApiFeature {
  return {
    schemas: fileSchemas,
    routes: (ctx) => async (app) => {
      const routeDeps = { ...deps, ...ctx };
      await app.register(directoriesRoutes(routeDeps));
      await app.register(filesRoutes(routeDeps));
      await app.register(uploadRoutes(routeDeps));
      await app.register(blobsRoutes(routeDeps));
    },
  };
}
