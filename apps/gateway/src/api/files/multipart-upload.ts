import { AppError, errors } from '@feedback/kit-core';
import type { File } from '@feedback/proto/feedback/file/v1/file';
import type { FastifyRequest } from 'fastify';
import type { FilesPort, UploadStream } from './files.port.js';

/** Room for boundaries, part headers and the filename field around the file's bytes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const tooLarge = (maxBytes: number) => errors.tooLarge({ file: `must be at most ${maxBytes} bytes` });

export interface UploadTarget {
  accountId: string;
  directoryId: string;
  userId: string;
}

/**
 * Streams a multipart/form-data upload (`file` and `filename`, in either order) into the file
 * service, chunk by chunk with backpressure: the request is never held in memory. When
 * `filename` comes first the file service checks it before any byte moves; when it comes after
 * the file, it travels as the stream's trailer. Any failure, a client disconnect included,
 * cancels the gRPC call, and the file service then aborts its S3 upload and stores nothing.
 */
export async function receiveUpload(req: FastifyRequest, files: FilesPort, target: UploadTarget, maxBytes: number): Promise<File> {
  let filename: string | undefined;
  let upload: UploadStream | undefined;
  const onClose = () => {
    if (!req.raw.complete) upload?.cancel();
  };
  req.raw.once('close', onClose);
  try {
    for await (const part of req.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12, fieldSize: 4096, headerPairs: 50 },
    })) {
      if (part.type === 'field') {
        if (part.fieldname !== 'filename') continue; // unknown fields are ignored, like a browser form's extras
        if (filename !== undefined) throw errors.invalid({ filename: 'must be given once' });
        if (part.valueTruncated) throw errors.invalid({ filename: 'is too long' });
        filename = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') throw errors.invalid({ [part.fieldname]: 'is not expected; send the file as "file"' });
      upload = files.startUpload({
        ...target,
        filename: filename ?? '',
        originalFilename: part.filename ?? '',
        contentType: part.mimetype ?? '',
      });
      for await (const chunk of part.file) await upload.write(chunk as Buffer);
      if (part.file.truncated) throw tooLarge(maxBytes);
    }
    if (!upload) throw errors.invalid({ file: 'is required' });
    if (filename === undefined) throw errors.invalid({ filename: 'is required' });
    return await upload.finish(filename);
  } catch (err) {
    upload?.cancel();
    throw multipartError(err, maxBytes);
  } finally {
    req.raw.off('close', onClose);
  }
}

/** @fastify/multipart and busboy errors as the API's errors (docs/errors.md); a programming error stays a 500. */
function multipartError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError || err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError) return err;
  switch ((err as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return errors.invalid({ file: 'only one file per upload' });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return errors.invalid({ body: 'has too many parts' });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.unsupportedMediaType({ 'content-type': 'must be multipart/form-data' });
    default:
      return errors.invalid({ body: 'is not valid multipart/form-data' });
  }
}
