import { PassThrough } from 'node:stream';
import type { sendUnaryData, ServerReadableStream } from '@grpc/grpc-js';
import { errors, type AppError } from '@feedback/kit-core';
import type { UploadFileRequest, UploadFileResponse, UploadMetadata } from '@feedback/proto/feedback/file/v1/file';
import type { FileServiceDeps } from '../domain/ports.js';
import { uploadFile } from '../domain/upload.use-cases.js';
import { fileMessage } from './file.messages.js';

type UploadCall = ServerReadableStream<UploadFileRequest, UploadFileResponse>;

const invalid = (field: string, why: string) => errors.invalid({ [field]: why });

/**
 * UploadFile: metadata, bytes, trailer. Bytes flow into a PassThrough that the use case streams
 * to S3; reading the call pauses while it is full, so HTTP/2 flow control holds the client back
 * instead of memory filling up.
 *
 * Only the trailer completes an upload. grpc-js ends the request stream ('end') when the client
 * resets it, before it reports 'cancelled': ending on 'end' alone would store a truncated file.
 * Without the trailer, or on cancel, the stream is destroyed, which aborts the S3 upload.
 */
export function uploadHandler(deps: FileServiceDeps) {
  return (call: UploadCall, callback: sendUnaryData<UploadFileResponse>) => {
    const bytes = new PassThrough({ highWaterMark: 256 * 1024 });
    bytes.on('error', () => undefined); // reported through the upload's outcome, not as an event
    let started = false;
    let trailer: string | undefined;
    const fail = (err: AppError) => {
      if (!started) callback(err);
      bytes.destroy(err);
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
      if (!started) return msg.metadata ? start(msg.metadata) : fail(invalid('metadata', 'must come first'));
      if (trailer !== undefined) return fail(invalid('trailer', 'must be the last message'));
      if (msg.chunk) {
        if (!bytes.write(msg.chunk)) call.pause();
      } else if (msg.trailer) {
        trailer = msg.trailer.filename;
      } else {
        fail(invalid('metadata', 'must come once'));
      }
    });
    bytes.on('drain', () => call.resume());
    call.on('end', () => {
      if (!started) fail(invalid('metadata', 'is required'));
      else if (trailer === undefined) fail(invalid('trailer', 'is missing: the upload was cut off'));
      else bytes.end();
    });
    call.on('cancelled', () => bytes.destroy(errors.unavailable('upload cancelled by the client')));
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
