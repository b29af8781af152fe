import type { Logger } from '@feedback/kit-core';
import { PoisonMessageError, runConsumer, type ConsumerHandle } from '@feedback/kit-kafka';
import type { Kafka } from 'kafkajs';
import { dispatchSms } from '../../domain/dispatch.use-cases.js';
import { UndeliverableEventError } from '../../domain/dispatch-results.js';
import type { DispatchDeps } from '../../ports.js';
import { decodeDispatch } from './dispatch.publisher.js';
import type { AcceptGate } from '../../../intake/adapters/accept-gate.js';

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
  /** Events per dispatchSms call (default 100); 0: one event per call. */
  batchSize?: number;
  /** Batches wait while a sharing is being accepted (accept-gate.ts). */
  gate?: Pick<AcceptGate, 'clear'>;
  /** Partitions handled at once (default 1). */
  partitions?: number;
  /** How long a silent member keeps its partitions (default kit-kafka's 30 s); heartbeats go at a tenth of it. */
  sessionTimeoutMs?: number;
  onCrash?: (err: Error) => void;
  /** Return at once and join the group in the background (kit-kafka); a failed start goes to onCrash. */
  background?: boolean;
}

/**
 * The sms.dispatch consumer group. Each slice of a partition's batch goes through dispatchSms
 * at once (a few round trips for the lot); an event that failed there goes through it again
 * alone, a batch of one, whose error kit-kafka handles: undecodable events and events of a
 * vanished campaign are dead-lettered at once; everything else is retried in place with
 * backoff, then dead-lettered. Redelivery is harmless: the message claim lets one attempt
 * reach the provider.
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
    ...(opts.sessionTimeoutMs !== undefined && {
      sessionTimeout: opts.sessionTimeoutMs,
      // Well under a third of the session (Kafka's rule), so one late heartbeat does not cost the partitions.
      heartbeatInterval: Math.floor(opts.sessionTimeoutMs / 10),
    }),
    onCrash: opts.onCrash,
    background: opts.background,
    ...((opts.batchSize ?? 100) > 0 && {
      batchSize: opts.batchSize ?? 100,
      batchHandler: async (messages, tools) => {
        // Undecodable events are left to the handler below, which dead-letters them.
        const decoded = messages.flatMap((m) => {
          try {
            return [{ m, event: decodeDispatch(m.value) }];
          } catch {
            return [];
          }
        });
        await opts.gate?.clear();
        const results = await dispatchSms(
          opts.deps,
          decoded.map((d) => d.event),
        );
        // Refused for good (its recipient already recorded failed): dead-lettered now, never
        // retried, so it holds back nothing behind it.
        const refused = decoded.flatMap((d, i) => (results[i] instanceof UndeliverableEventError ? [{ ...d, err: results[i] }] : []));
        await Promise.all(refused.map((d) => tools.deadLetter([d.m], d.err)));
        // The other failures go again alone (the handler below), with kit-kafka's retries and dead letters.
        const done = decoded.filter((_, i) => !(results[i] instanceof Error) || results[i] instanceof UndeliverableEventError);
        log.debug({ count: messages.length, done: done.length, refused: refused.length }, 'sms batch dispatched');
        return done.map((d) => d.m);
      },
    }),
    handler: async (msg) => {
      let event;
      try {
        event = decodeDispatch(msg.value);
      } catch (err) {
        throw new PoisonMessageError(`undecodable sms.dispatch at ${msg.topic}:${msg.partition}:${msg.offset}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      const [result] = await dispatchSms(opts.deps, [event]);
      if (result instanceof UndeliverableEventError) throw new PoisonMessageError(result.message, { cause: result });
      if (result instanceof Error) throw result;
      log.debug({ sharing: event.sharingId, outcome: result }, 'sms dispatched');
    },
  });
}
