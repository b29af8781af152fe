import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumerHandle } from '@feedback/kit-kafka';
import { FileUploaded } from '@feedback/proto/feedback/file/v1/file';
import type { Kafka } from 'kafkajs';
import { runCsvWorkflow, type UploadedFile } from '../../domain/csv-workflow.use-cases.js';
import type { CsvWorkflowDeps } from '../../ports.js';

export interface FileUploadedConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  deps: CsvWorkflowDeps;
  logger: Logger;
  /** A new group starts at the topic's beginning unless told otherwise (tests start at the end). */
  fromBeginning?: boolean;
  retryBackoffMs?: number;
  onCrash?: (err: Error) => void;
  /** Return at once and join the group in the background (kit-kafka); a failed start goes to onCrash. */
  background?: boolean;
}

/**
 * The CSV workflow's trigger: every `file.uploaded` of a bound directory and name. Redelivery
 * is harmless: the file service's claim hands a file to one run only, so a repeated event finds
 * nothing to run. Failures before the claim (binding lookup, file service down) are retried.
 */
export function runFileUploadedConsumer(opts: FileUploadedConsumerOptions): Promise<ConsumerHandle> {
  const log = opts.logger.child({ component: 'csv-workflow' });
  return runConsumer({
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    fromBeginning: opts.fromBeginning ?? true,
    logger: opts.logger,
    maxAttempts: 5,
    retryBackoffMs: opts.retryBackoffMs ?? 1_000,
    onCrash: opts.onCrash,
    background: opts.background,
    handler: async (msg) => {
      const uploaded = decodeFileUploaded(msg.value, `${msg.topic}:${msg.partition}:${msg.offset}`);
      const result = await runCsvWorkflow(opts.deps, uploaded);
      if (result.outcome !== 'not_bound') log.debug({ ...uploaded, outcome: result.outcome }, 'file.uploaded handled');
    },
  });
}

function decodeFileUploaded(value: Buffer, where: string): UploadedFile {
  let file;
  try {
    file = FileUploaded.decode(value).file;
  } catch (err) {
    throw new PoisonMessageError(`undecodable file.uploaded at ${where}: ${(err as Error).message}`, { cause: err });
  }
  if (!file?.accountId || !file.directoryId || !file.filename)
    throw new PoisonMessageError(`file.uploaded at ${where} lacks account, directory or filename`);
  return { fileId: file.id, accountId: file.accountId, directoryId: file.directoryId, filename: file.filename };
}
