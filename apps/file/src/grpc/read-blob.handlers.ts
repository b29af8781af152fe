import { once } from 'node:events';
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { ReadBlobRequest, ReadBlobResponse } from '@feedback/proto/feedback/file/v1/file';
import { openBlob } from '../domain/blob.use-cases.js';
import type { FileServiceDeps } from '../domain/ports.js';

type ReadCall = ServerWritableStream<ReadBlobRequest, ReadBlobResponse>;

/** ReadBlob: the info message, then the bytes in chunks, at the pace the caller reads them. */
export function readBlobHandler(deps: FileServiceDeps) {
  return async (call: ReadCall) => {
    const req = call.request;
    const range =
      req.first !== undefined || req.suffixLength !== undefined
        ? { first: req.first, last: req.last, suffixLength: req.suffixLength }
        : undefined;
    const blob = await openBlob(deps, req.blobToken, range, req.infoOnly);
    const { file } = blob;
    call.write({
      info: {
        filename: file.filename,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
        offset: blob.range?.offset ?? 0,
        length: blob.range?.length ?? 0,
        partial: blob.range?.partial ?? false,
        rangeNotSatisfiable: blob.range === null,
      },
    });
    const bytes = blob.bytes;
    if (!bytes) return void call.end();
    const cancelled = new Promise<void>((resolve) => call.once('cancelled', resolve));
    call.once('cancelled', () => bytes.destroy());
    try {
      for await (const chunk of bytes as AsyncIterable<Buffer>) {
        if (call.cancelled) return;
        if (!call.write({ chunk })) await Promise.race([once(call, 'drain'), cancelled]);
      }
    } catch (err) {
      if (call.cancelled) return;
      throw err;
    }
    call.end();
  };
}
