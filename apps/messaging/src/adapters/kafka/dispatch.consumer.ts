import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumerHandle } from '@feedback/kit-kafka';
import type { Kafka } from 'kafkajs';
import { dispatchSms, UndeliverableEventError, type DispatchDeps } from '../../domain/dispatch.use-case.js';
import { decodeDispatch } from './dispatch.publisher.js';

export interface DispatchConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  deps: DispatchDeps;
  logger: Logger;
  /** Attempts before a failing event (provider or peer down) is dead-lettered; default 6. */
  maxAttempts?: number;
  retryBackoffMs?: number;
  /**
   * Events of one partition handled at once (default 1). Each waits mostly on the survey and
   * shortener services and the database, so a window of them keeps those busy; the per-(sharing,
   * phone) claim, not the order of events, is what keeps each SMS at most once.
   */
  concurrency?: number;
  /** Partitions handled at once (default 1). */
  partitions?: number;
  onCrash?: (err: Error) => void;
  /** Return at once and join the group in the background (kit-kafka); a failed start goes to onCrash. */
  background?: boolean;
}

/**
 * The sms.dispatch consumer group. Undecodable events and events of a vanished campaign are
 * dead-lettered at once; everything else is retried in place with backoff (kit-kafka), then
 * dead-lettered. Redelivery is harmless: the message claim lets one attempt reach the provider.
 */
export function runDispatchConsumer(opts: DispatchConsumerOptions): Promise<ConsumerHandle> {
  const log = opts.logger.child({ component: 'sms-dispatch' });
  return runConsumer({
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: [opts.topic],
    fromBeginning: true,
    logger: opts.logger,
    maxAttempts: opts.maxAttempts ?? 6,
    retryBackoffMs: opts.retryBackoffMs ?? 1_000,
    concurrency: opts.concurrency ?? 1,
    partitionsConsumedConcurrently: opts.partitions ?? 1,
    onCrash: opts.onCrash,
    background: opts.background,
    handler: async (msg) => {
      let event;
      try {
        event = decodeDispatch(msg.value);
      } catch (err) {
        throw new PoisonMessageError(`undecodable sms.dispatch at ${msg.topic}:${msg.partition}:${msg.offset}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      try {
        const outcome = await dispatchSms(opts.deps, event);
        log.debug({ sharing: event.sharingId, outcome }, 'sms dispatched');
      } catch (err) {
        if (err instanceof UndeliverableEventError) throw new PoisonMessageError(err.message, { cause: err });
        throw err;
      }
    },
  });
}
