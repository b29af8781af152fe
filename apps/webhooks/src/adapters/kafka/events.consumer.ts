import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumedMessage, type ConsumerHandle } from '@feedback/kit-kafka';
import { FileExpired, FileProcessed, FileProcessingStatus } from '@feedback/proto/feedback/file/v1/file';
import { SharingCompleted, SmsStatusChanged } from '@feedback/proto/feedback/messaging/v1/messaging';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import type { Kafka } from 'kafkajs';
import {
  fileExpiredEvent,
  fileProcessedEvent,
  sharingCompletedEvent,
  smsStatusEvent,
  surveyAnsweredEvent,
} from '../../domain/event-mapping.js';
import { recordEvent, recordEvents } from '../../domain/event.use-cases.js';
import type { DeliveryHandoff, WebhooksDeps } from '../../domain/ports.js';
import type { WebhookEvent } from '../../domain/webhook.js';

export interface EventTopics {
  surveyAnswered: string;
  smsStatus: string;
  fileExpired: string;
  /** file.processed (the file service); unset: not consumed (tests of the other topics). */
  fileProcessed?: string;
  /** sharing.completed (messaging); unset: not consumed (tests of the other topics). */
  sharingCompleted?: string;
}

export interface EventsConsumerOptions {
  kafka: Kafka;
  topics: EventTopics;
  groupId: string;
  deps: Pick<WebhooksDeps, 'endpoints' | 'deliveries' | 'clock' | 'newId' | 'settings'>;
  logger: Logger;
  /** A new group starts at the topics' beginning unless told otherwise (tests start at the end). */
  fromBeginning?: boolean;
  retryBackoffMs?: number;
  onCrash?: (err: Error) => void;
  background?: boolean;
  /** This process's sender: new deliveries go to it at once (stored claimed for it, as it has room). */
  handoff?: DeliveryHandoff;
}

function decode<T>(what: string, msg: ConsumedMessage, fn: (b: Buffer) => T): T {
  try {
    return fn(msg.value);
  } catch (err) {
    throw new PoisonMessageError(`undecodable ${what} at ${msg.topic}:${msg.partition}:${msg.offset}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

const PROCESSING_STATUSES: Partial<Record<FileProcessingStatus, 'processed' | 'failed'>> = {
  [FileProcessingStatus.FILE_PROCESSING_STATUS_PROCESSED]: 'processed',
  [FileProcessingStatus.FILE_PROCESSING_STATUS_FAILED]: 'failed',
};

/** The webhook event of a record, or null for a record that raises none (an SMS status like `sent`). */
export function eventOf(topics: EventTopics, msg: ConsumedMessage, now: Date): WebhookEvent | null {
  switch (msg.topic) {
    case topics.surveyAnswered: {
      const response = decode('survey.answered', msg, (b) => SurveyAnswered.decode(b).response);
      if (!response?.accountId) throw new PoisonMessageError(`survey.answered at ${msg.topic}:${msg.offset} has no account`);
      return surveyAnsweredEvent(msg.eventId, response, now);
    }
    case topics.smsStatus: {
      const status = decode('sms.status', msg, (b) => SmsStatusChanged.decode(b));
      return smsStatusEvent(msg.eventId, status, now);
    }
    case topics.fileExpired: {
      const file = decode('file.expired', msg, (b) => FileExpired.decode(b));
      return fileExpiredEvent(msg.eventId, file, now);
    }
    case topics.fileProcessed: {
      const file = decode('file.processed', msg, (b) => FileProcessed.decode(b).file);
      if (!file?.accountId || !file.processing)
        throw new PoisonMessageError(`file.processed at ${msg.topic}:${msg.offset} lacks account or processing`);
      const status = PROCESSING_STATUSES[file.processing.status];
      if (!status) throw new PoisonMessageError(`file.processed at ${msg.topic}:${msg.offset} has no final status`);
      return fileProcessedEvent(msg.eventId, { ...file, processing: { ...file.processing, status } }, now);
    }
    case topics.sharingCompleted: {
      const completed = decode('sharing.completed', msg, (b) => SharingCompleted.decode(b));
      if (!completed.accountId) throw new PoisonMessageError(`sharing.completed at ${msg.topic}:${msg.offset} has no account`);
      return sharingCompletedEvent(msg.eventId, completed, now);
    }
    default:
      throw new PoisonMessageError(`unexpected topic ${msg.topic}`);
  }
}

/**
 * Turns survey.answered, sms.status, file.expired, file.processed and sharing.completed into deliveries (one per subscribed endpoint).
 * Idempotent: deliveries are unique per endpoint and event id, so a redelivered record adds none.
 * Nothing here waits for a receiver: the sender works on the stored deliveries (handed the new ones).
 */
export function runEventsConsumer(opts: EventsConsumerOptions): Promise<ConsumerHandle> {
  const log = opts.logger.child({ component: 'webhook-events' });
  const stored = (created: number, events: number) => {
    if (created > 0) log.debug({ events, created }, 'deliveries queued');
  };
  return runConsumer({
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [
      opts.topics.surveyAnswered,
      opts.topics.smsStatus,
      opts.topics.fileExpired,
      ...(opts.topics.fileProcessed ? [opts.topics.fileProcessed] : []),
      ...(opts.topics.sharingCompleted ? [opts.topics.sharingCompleted] : []),
    ],
    fromBeginning: opts.fromBeginning ?? false,
    logger: opts.logger,
    maxAttempts: 5,
    retryBackoffMs: opts.retryBackoffMs ?? 1_000,
    onCrash: opts.onCrash,
    background: opts.background,
    // A slice waits for its first attempts (up to a second): other partitions' slices go on meanwhile.
    partitionsConsumedConcurrently: 3,
    // A slice of a partition's batch at once: one endpoint lookup per account and type, one
    // write for all its deliveries. A record that does not decode is left to `handler`, which
    // dead-letters it; a failed write sends the slice through `handler` one by one.
    batchHandler: async (messages) => {
      const now = opts.deps.clock.now();
      const decoded: ConsumedMessage[] = [];
      const events: WebhookEvent[] = [];
      for (const msg of messages) {
        let event: WebhookEvent | null;
        try {
          event = eventOf(opts.topics, msg, now);
        } catch {
          continue;
        }
        decoded.push(msg);
        if (event) events.push(event);
      }
      stored(await recordEvents(opts.deps, events, opts.handoff), events.length);
      return decoded;
    },
    handler: async (msg) => {
      const event = eventOf(opts.topics, msg, opts.deps.clock.now());
      if (!event) return;
      stored(await recordEvent(opts.deps, event, opts.handoff), 1);
    },
  });
}
