import { PassThrough } from 'node:stream';
import type { sendUnaryData, ServerReadableStream } from '@grpc/grpc-js';
import { AppError } from '@feedback/kit-core';
import type { UploadFileRequest, UploadFileResponse, UploadMetadata } from '@feedback/proto/feedback/file/v1/file';
import type { FileServiceDeps } from '../domain/ports.js';
import { uploadFile } from '../domain/upload.use-case.js';
import { fileMessage } from './file.messages.js';

type UploadCall = ServerReadableStream<UploadFileRequest, UploadFileResponse>;

/**
 * UploadFile: the first message carries the metadata, then bytes, then an optional trailer.
 * Bytes flow into a PassThrough that the use case streams to S3; reading the call pauses while
 * it is full, so HTTP/2 flow control holds the client back instead of memory filling up.
 * A cancelled call (the HTTP client went away) destroys the stream, which aborts the upload.
 */
export function uploadHandler(deps: FileServiceDeps) {
  return (call: UploadCall, callback: sendUnaryData<UploadFileResponse>) => {
    const bytes = new PassThrough({ highWaterMark: 256 * 1024 });
    let started = false;
    let trailer: string | undefined;
    const fail = (err: unknown) => {
      if (!started) callback(err as Error);
      bytes.destroy(err as Error);
    };

    const start = (meta: UploadMetadata) => {
      started = true;
      uploadFile(deps, requestOf(meta), { bytes, trailerFilename: () => trailer }).then(
        (file) => callback(null, { file: fileMessage(file) }),
        (err: unknown) => callback(err as Error),
      );
    };

    call.on('data', (msg: UploadFileRequest) => {
      if (bytes.destroyed) return;
      if (!started) return msg.metadata ? start(msg.metadata) : fail(new AppError('invalid', undefined, { metadata: 'must come first' }));
      if (msg.chunk) {
        if (!bytes.write(msg.chunk)) call.pause();
      } else if (msg.trailer) {
        trailer = msg.trailer.filename;
      } else {
        fail(new AppError('invalid', undefined, { metadata: 'must come once' }));
      }
    });
    bytes.on('drain', () => call.resume());
    call.on('end', () => (started ? bytes.end() : fail(new AppError('invalid', undefined, { metadata: 'is required' }))));
    call.on('cancelled', () => bytes.destroy(new AppError('unavailable', 'upload cancelled by the client')));
    call.on('error', (err) => bytes.destroy(err));
  };
}

function requestOf(meta: UploadMetadata) {
  return {
    accountId: meta.accountId,
    directoryId: meta.directoryId,
    filename: meta.filename,
    originalFilename: meta.originalFilename,
    contentType: meta.contentType,
    userId: meta.userId,
    ...(meta.size !== undefined ? { size: meta.size } : {}),
  };
}
