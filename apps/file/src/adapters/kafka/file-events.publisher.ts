import type { Producer } from '@feedback/kit-kafka';
import { FileExpired, FileProcessed, FileUploaded } from '@feedback/proto/feedback/file/v1/file';
import type { FileEntry } from '../../domain/file-entry.js';
import type { FileEvents } from '../../domain/ports.js';
import { fileMessage } from '../../grpc/file.messages.js';

export interface FileEventTopics {
  uploaded: string;
  expired: string;
  processed: string;
}

const PROTOBUF = (type: string) => `application/x-protobuf; messageType=feedback.file.v1.${type}`;

/** Protobuf values keyed by file id; event ids are derived from the file, so a retry repeats them. */
export function kafkaFileEvents(producer: Producer, topics: FileEventTopics): FileEvents {
  return {
    async uploaded(file: FileEntry) {
      const value = Buffer.from(FileUploaded.encode({ file: fileMessage(file) }).finish());
      await producer.publish(topics.uploaded, [
        { key: file.id, value, eventId: `file.uploaded:${file.id}`, contentType: PROTOBUF('FileUploaded') },
      ]);
    },
    async expired(file: FileEntry) {
      if (!file.expiredAt) throw new Error(`file ${file.id} has no expired_at`);
      const value = Buffer.from(
        FileExpired.encode({
          fileId: file.id,
          accountId: file.accountId,
          directoryId: file.directoryId,
          filename: file.filename,
          expiredAt: file.expiredAt.toISOString(),
        }).finish(),
      );
      await producer.publish(topics.expired, [
        { key: file.id, value, eventId: `file.expired:${file.id}`, contentType: PROTOBUF('FileExpired') },
      ]);
    },
    async processed(file: FileEntry) {
      const value = Buffer.from(FileProcessed.encode({ file: fileMessage(file) }).finish());
      await producer.publish(topics.processed, [
        { key: file.id, value, eventId: `file.processed:${file.id}`, contentType: PROTOBUF('FileProcessed') },
      ]);
    },
  };
}
