import { once } from 'node:events';
import { Readable } from 'node:stream';
import { errors, type AppError } from '@feedback/kit-core';
import { localAddr } from '@feedback/kit-core/runtime';
import type { ServiceError } from '@grpc/grpc-js';
import { callMetadata, createGrpcClient, statusToAppError } from '@feedback/kit-grpc';
import {
  FileServiceClient,
  type BlobInfo,
  type File,
  type ReadBlobRequest,
  type ReadBlobResponse,
  type UploadMetadata,
} from '@feedback/proto/feedback/file/v1/file';
import type { GrpcPeer, PeerOptions } from '../../grpc-peers.js';
import type { FilesPort, OpenedBlob, UploadStream } from './files.port.js';

/**
 * The file service as the routes see it: its unary calls (deadline, request ids, AppErrors
 * from kit-grpc) and the two streams. Streams get a long deadline of their own: a 1 GiB upload
 * over a slow link must not be cut by the unary deadline.
 */
export function connectFileService(address: string, opts: PeerOptions) {
  const client = createGrpcClient(FileServiceClient, address, {
    deadlineMs: opts.deadlineMs,
    logger: opts.logger,
    // Downloads: a 1 MiB window instead of HTTP/2's 64 KiB, as the file service does for uploads.
    channelOptions: { 'grpc-node.flow_control_window': 1024 * 1024 },
  });
  const deadline = () => Date.now() + opts.streamDeadlineMs;
  const port: FilesPort = {
    createDirectory: (req) => client.createDirectory(req),
    listDirectories: (req) => client.listDirectories(req),
    listFiles: (req) => client.listFiles(req),
    getFile: (req) => client.getFile(req),
    deleteFile: (req) => client.deleteFile(req),
    startUpload: (meta) => startUpload(client.raw, meta, deadline()),
    openBlob: (req) => openBlob(client.raw, req, deadline()),
  };
  return { port, close: () => client.close() };
}

/** The file service: unary calls and the upload and download streams. */
export const filePeer: GrpcPeer<FilesPort> = { defaultAddr: localAddr('FILE_GRPC_PORT'), connect: connectFileService };

function startUpload(raw: FileServiceClient, meta: UploadMetadata, deadline: number): UploadStream {
  let failure: AppError | undefined;
  let call!: ReturnType<FileServiceClient['uploadFile']>;
  const result = new Promise<File>((resolve, reject) => {
    // The callback is the only place a client-streaming call reports its outcome.
    call = raw.uploadFile(callMetadata(), { deadline }, (err, res) => {
      if (err) reject((failure = statusToAppError(err)));
      else if (res.file) resolve(res.file);
      else reject((failure = errors.internal()));
    });
  });
  result.catch(() => undefined); // observed through write() and finish()
  call.write({ metadata: meta });

  return {
    async write(chunk) {
      if (failure) throw failure;
      if (call.write({ chunk })) return;
      // Backpressure: wait until HTTP/2 flow control lets the chunk go, or the call ends.
      await Promise.race([once(call, 'drain'), result.then(() => Promise.reject(errors.internal()))]);
    },
    finish(trailerFilename) {
      call.write({ trailer: { filename: trailerFilename ?? '' } }); // the trailer completes the upload
      call.end();
      return result;
    },
    cancel() {
      call.cancel();
    },
  };
}

/** Resolves with the info message; the bytes follow as a stream read at the HTTP client's pace. */
function openBlob(raw: FileServiceClient, req: ReadBlobRequest, deadline: number): Promise<OpenedBlob> {
  const call = raw.readBlob(req, callMetadata(), { deadline });
  let ended = false;
  const body = new Readable({
    read: () => void call.resume(),
    destroy: (err, done) => {
      if (!ended) call.cancel(); // the HTTP client went away: stop reading from S3
      done(err);
    },
  });
  return new Promise<OpenedBlob>((resolve, reject) => {
    let info: BlobInfo | undefined;
    call.on('data', (msg: ReadBlobResponse) => {
      if (!info) {
        if (!msg.info) return reject(errors.internal());
        info = msg.info;
        return resolve({ info, body });
      }
      if (msg.chunk && !body.push(msg.chunk)) call.pause();
    });
    call.on('end', () => {
      ended = true;
      body.push(null);
    });
    call.on('error', (err: ServiceError) => {
      ended = true;
      const appErr = statusToAppError(err);
      if (!info) reject(appErr);
      else body.destroy(appErr);
    });
  });
}
