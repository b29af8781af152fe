import { PoisonMessageError, type ConsumedMessage } from '@feedback/kit-kafka';
import { File, FileProcessed, FileProcessingStatus } from '@feedback/proto/feedback/file/v1/file';
import { describe, expect, it } from 'vitest';
import { eventOf } from '../src/adapters/kafka/events.consumer.js';
import { bodyOf } from '../src/domain/event-mapping.js';

const topics = { surveyAnswered: 'sa', smsStatus: 'ss', fileExpired: 'fe', fileProcessed: 'fp' };
const now = new Date('2026-11-28T10:00:00.000Z');
const record = (file: Partial<File>): ConsumedMessage => ({
  key: 'f1',
  topic: 'fp',
  partition: 0,
  offset: '3',
  value: Buffer.from(FileProcessed.encode({ file: File.fromPartial(file) }).finish()),
  headers: {},
  eventId: 'file.processed:f1',
});
const file: Partial<File> = {
  id: 'f1',
  accountId: 'acc',
  directoryId: 'd1',
  directoryName: 'sms-recipients',
  filename: 'customers.csv',
  processing: {
    status: FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED,
    sharingId: 's1',
    rows: 3,
    accepted: 2,
    rejected: 1,
    errors: [{ row: 4, reason: 'not_a_number' }],
    reason: '',
    processedAt: '2026-11-28T09:59:00.000Z',
  },
};

describe('file.processed', () => {
  it('carries the file and its processing as the file entry shows it, timed when it was recorded', () => {
    const event = eventOf(topics, record(file), now)!;
    expect(event).toMatchObject({ id: 'file.processed:f1', accountId: 'acc', type: 'file.processed' });
    expect(JSON.parse(bodyOf(event))).toEqual({
      type: 'file.processed',
      timestamp: '2026-11-28T09:59:00.000Z',
      data: {
        file_id: 'f1',
        directory_id: 'd1',
        directory: 'sms-recipients',
        filename: 'customers.csv',
        processing: {
          status: 'processed',
          sharing_id: 's1',
          rows: 3,
          accepted: 2,
          rejected: 1,
          errors: [{ row: 4, reason: 'not_a_number' }],
          reason: null,
          processed_at: '2026-11-28T09:59:00.000+00:00',
        },
      },
    });
  });

  it('a failed file: its reason, no sharing', () => {
    const failed = { ...file.processing!, status: FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED, sharingId: '', reason: 'bad header' };
    expect(eventOf(topics, record({ ...file, processing: failed }), now)?.data.processing).toMatchObject({
      status: 'failed',
      sharing_id: null,
      reason: 'bad header',
    });
  });

  it('dead-letters a record without an account, a processing or a final status', () => {
    const pending = { ...file.processing!, status: FileProcessingStatus.FILE_PROCESSING_STATUS_PENDING };
    expect(() => eventOf(topics, record({ ...file, accountId: '' }), now)).toThrow(PoisonMessageError);
    expect(() => eventOf(topics, record({ ...file, processing: undefined }), now)).toThrow(PoisonMessageError);
    expect(() => eventOf(topics, record({ ...file, processing: pending }), now)).toThrow(PoisonMessageError);
  });
});
