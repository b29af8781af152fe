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
 * `target` may be worked out from the form's fields sent before the file (the console's form:
 * its CSRF token and chosen directory), so nothing is stored for a refused form.
 */
export async function receiveUpload(
  req: FastifyRequest,
  files: Pick<FilesPort, 'startUpload'>,
  target: UploadTarget | ((fields: ReadonlyMap<string, string>) => Promise<UploadTarget>),
  maxBytes: number,
): Promise<File> {
  let filename: string | undefined;
  // A console form's other fields (its CSRF token, the chosen directory), read before the file's part.
  const fields = new Map<string, string>();
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
        if (part.fieldname !== 'filename') {
          // Unknown fields are ignored, like a browser form's extras; the first of each is kept for a target that reads them.
          if (typeof target === 'function' && !fields.has(part.fieldname) && !part.valueTruncated)
            fields.set(part.fieldname, String(part.value));
          continue;
        }
        if (filename !== undefined) throw errors.invalid({ filename: 'must be given once' });
        if (part.valueTruncated) throw errors.invalid({ filename: 'is too long' });
        filename = String(part.value);
        fields.set('filename', filename);
        continue;
      }
      if (part.fieldname !== 'file') throw errors.invalid({ [part.fieldname]: 'is not expected; send the file as "file"' });
      const into = typeof target === 'function' ? await target(fields) : target;
      upload = files.startUpload({
        ...into,
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
