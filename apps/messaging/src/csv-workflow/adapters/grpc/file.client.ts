import { callMetadata, statusToAppError, type GrpcClient } from '@feedback/kit-grpc';
import {
  FileProcessingStatus,
  ProcessingOutcome,
  type File,
  type FileServiceClient,
  type ReadBlobResponse,
} from '@feedback/proto/feedback/file/v1/file';
import type { ClaimedFile, WorkflowFiles } from '../../ports.js';
import { csvRecords } from '../csv/csv-records.js';

export interface FilePortsOptions {
  /** Deadline of one blob read; a customer list is at most a few MB. */
  readDeadlineMs?: number;
}

/** The file service behind the CSV workflow's port; unary calls carry the client's deadline. */
export function filePorts(client: GrpcClient<FileServiceClient>, opts: FilePortsOptions = {}): WorkflowFiles {
  return {
    async directoryExists(accountId, directoryId) {
      const { directories } = await client.listDirectories({ accountId });
      return directories.some((d) => d.id === directoryId);
    },
    async claimLatest(q) {
      const res = await client.claimLatestFile({
        accountId: q.accountId,
        directoryId: q.directoryId,
        filename: q.filename,
        claimer: q.claimer,
      });
      return { file: res.file ? claimedFile(res.file) : null, superseded: res.superseded };
    },
    records(file) {
      return csvRecords(readBlob(client.raw, file.blobToken, opts.readDeadlineMs ?? 60_000));
    },
    async complete(q) {
      const outcome =
        q.outcome === 'processed' ? ProcessingOutcome.PROCESSING_OUTCOME_PROCESSED : ProcessingOutcome.PROCESSING_OUTCOME_FAILED;
      await client.completeProcessing({ accountId: q.accountId, fileId: q.fileId, claimer: q.claimer, outcome });
    },
    async setBound(q) {
      await client.setWorkflowBinding({ accountId: q.accountId, directoryId: q.directoryId, filename: q.filename, bound: q.bound });
    },
    async recordOutcome({ accountId, fileId, outcome: o }) {
      const status =
        o.status === 'processed'
          ? FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED
          : FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED;
      await client.recordProcessing({
        accountId,
        fileId,
        processing: {
          status,
          sharingId: o.sharingId ?? '',
          rows: o.rows,
          accepted: o.accepted,
          rejected: o.rejected,
          errors: o.errors,
          reason: o.reason ?? '',
          processedAt: '',
        },
      });
    },
  };
}

function claimedFile(f: File): ClaimedFile {
  return {
    id: f.id,
    accountId: f.accountId,
    directoryId: f.directoryId,
    filename: f.filename,
    blobToken: f.blobToken,
    size: Number(f.size),
  };
}

/** The blob's bytes (the server stream's chunks after its info message); cancelled when the reader stops early. */
async function* readBlob(raw: FileServiceClient, blobToken: string, deadlineMs: number): AsyncGenerator<Buffer> {
  const call = raw.readBlob({ blobToken, infoOnly: false }, callMetadata(), { deadline: Date.now() + deadlineMs });
  let done = false;
  try {
    for await (const msg of call as AsyncIterable<ReadBlobResponse>) {
      if (msg.chunk) yield Buffer.from(msg.chunk);
    }
    done = true;
  } catch (err) {
    throw 'code' in (err as object) ? statusToAppError(err as Parameters<typeof statusToAppError>[0]) : err;
  } finally {
    if (!done) call.cancel();
  }
}
