import { unary } from '@feedback/kit-grpc';
import type { FileServiceServer } from '@feedback/proto/feedback/file/v1/file';
import { claimLatestFile, completeProcessing } from '../domain/claim.use-cases.js';
import { createDirectory, listDirectories } from '../domain/directory.use-cases.js';
import { deleteFile, getFile, listFiles } from '../domain/file.use-cases.js';
import type { FileServiceDeps } from '../domain/ports.js';
import { recordProcessing, setWorkflowBinding } from '../domain/workflow.use-cases.js';
import { directoryMessage, fileMessage, outcomeOf, reportOf } from './file.messages.js';
import { readBlobHandler } from './read-blob.handlers.js';
import { uploadHandler } from './upload.handlers.js';

/** Thin: decode, call one use case, encode. Errors are mapped by kit-grpc. */
export function fileHandlers(deps: FileServiceDeps): FileServiceServer {
  return {
    createDirectory: unary(async (req) => ({ directory: directoryMessage(await createDirectory(deps, req.accountId, req.name)) })),
    listDirectories: unary(async (req) => ({ directories: (await listDirectories(deps, req.accountId)).map(directoryMessage) })),
    uploadFile: uploadHandler(deps),
    listFiles: unary(async (req) => ({ files: (await listFiles(deps, req.accountId, req.directoryId)).map(fileMessage) })),
    getFile: unary(async (req) => ({ file: fileMessage(await getFile(deps, req.accountId, req.directoryId, req.fileId)) })),
    deleteFile: unary(async (req) => ({ file: fileMessage(await deleteFile(deps, req.accountId, req.directoryId, req.fileId)) })),
    readBlob: readBlobHandler(deps),
    claimLatestFile: unary(async (req) => {
      const claim = await claimLatestFile(deps, req.accountId, req.directoryId, req.filename, req.claimer);
      return { ...(claim.file ? { file: fileMessage(claim.file) } : {}), superseded: claim.superseded };
    }),
    completeProcessing: unary(async (req) => ({
      file: fileMessage(await completeProcessing(deps, req.accountId, req.fileId, req.claimer, outcomeOf(req.outcome))),
    })),
    setWorkflowBinding: unary(async (req) => {
      await setWorkflowBinding(deps, req);
      return {};
    }),
    recordProcessing: unary(async (req) => ({
      file: fileMessage(await recordProcessing(deps, req.accountId, req.fileId, reportOf(req.processing))),
    })),
  };
}
