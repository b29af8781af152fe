import type { Readable } from 'node:stream';
import type {
  BlobInfo,
  CreateDirectoryRequest,
  CreateDirectoryResponse,
  DeleteFileRequest,
  DeleteFileResponse,
  File,
  GetFileRequest,
  GetFileResponse,
  ListDirectoriesRequest,
  ListDirectoriesResponse,
  ListFilesRequest,
  ListFilesResponse,
  ReadBlobRequest,
  UploadMetadata,
} from '@feedback/proto/feedback/file/v1/file';

/** One upload in flight: chunks in with backpressure, then the stored entry. */
export interface UploadStream {
  /** Resolves when the chunk may be followed by the next; rejects once the call failed. */
  write(chunk: Buffer): Promise<void>;
  /** Ends the stream (with a filename that arrived after the bytes) and awaits the entry. */
  finish(trailerFilename?: string): Promise<File>;
  /** The file service aborts its S3 upload and stores nothing. */
  cancel(): void;
}

export interface OpenedBlob {
  info: BlobInfo;
  /** Destroying it cancels the read. */
  body: Readable;
}

/** What the file routes need from the file service. */
export interface FilesPort {
  createDirectory(req: CreateDirectoryRequest): Promise<CreateDirectoryResponse>;
  listDirectories(req: ListDirectoriesRequest): Promise<ListDirectoriesResponse>;
  listFiles(req: ListFilesRequest): Promise<ListFilesResponse>;
  getFile(req: GetFileRequest): Promise<GetFileResponse>;
  deleteFile(req: DeleteFileRequest): Promise<DeleteFileResponse>;
  startUpload(meta: UploadMetadata): UploadStream;
  openBlob(req: ReadBlobRequest): Promise<OpenedBlob>;
}
