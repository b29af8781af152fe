import type { Logger } from '@feedback/kit-core';
import type { ConsumerRunConfig, EachBatchPayload, Kafka } from 'kafkajs';
import { consumerMetrics, type ConsumerMetrics } from './consumer-metrics.js';
import { defaultDeadLetterTopic } from './dead-letter.js';
import { createProducer, type Producer } from './producer.js';
import { ensureTopics, type TopicSpec } from './topics.js';

/** What every consumer of this kit shares: group, subscription, timings, dead letters, crash. */
export interface ConsumerLifecycleOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  /** Where a new group starts: the earliest offset (true) or only new messages (false, default). */
  fromBeginning?: boolean;
  /** One dead-letter topic for all subscribed topics; default `<topic>.dlq` per topic. */
  deadLetterTopic?: string;
  logger: Logger;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** Longest a fetch waits for new data; also bounds how long stop() waits for an idle fetch. */
  maxWaitTimeInMs?: number;
  /** Least data a fetch waits for (up to maxWaitTimeInMs): fewer, larger batches under load. */
  minBytes?: number;
  /** Called when kafkajs gives up and will not restart the consumer (e.g. to shut the process down). */
  onCrash?: (err: Error) => void;
  /** Topics to create first if missing (not best effort: a failure fails the start). */
  ensureTopics?: TopicSpec[];
  /**
   * Return the handle at once and connect, subscribe and join the group in the background. A
   * restarted member may wait a whole session timeout to join (the killed member's session must
   * expire first); a service should not stop serving meanwhile. A failed start goes to onCrash.
   */
  background?: boolean;
}

/** Shaped like kit-core's Closer, so it can be handed to onShutdown as is. */
export interface ConsumerHandle {
  name: string;
  /** Leaves the group and disconnects; later calls return the same promise. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** What a consumer's batch loop is handed by the lifecycle. */
export interface ConsumerSession {
  log: Logger;
  deadLetters: Producer;
  deadLetterTopic(topic: string): string;
  /** Aborted by stop(): ends waits (a retry backoff) at once. */
  signal: AbortSignal;
  /** The group's record counters; the lag is kept by the lifecycle itself (each resolved offset). */
  metrics: ConsumerMetrics;
}

/**
 * Keeps the lag gauge of each batch's partition: the high watermark of its fetch minus the next
 * offset to finish, set when the batch arrives and at each offset the handler resolves.
 */
function withLag(eachBatch: NonNullable<ConsumerRunConfig['eachBatch']>, metrics: ConsumerMetrics) {
  return (payload: EachBatchPayload) => {
    const { batch } = payload;
    const first = batch.messages[0];
    if (first) metrics.lag(batch.topic, batch.partition, batch.highWatermark, first.offset);
    const resolveOffset = (offset: string) => {
      payload.resolveOffset(offset);
      metrics.lag(batch.topic, batch.partition, batch.highWatermark, String(BigInt(offset) + 1n));
    };
    return eachBatch({ ...payload, resolveOffset });
  };
}

/**
 * Heartbeats every `intervalMs` while a batch is in hand, not only between the handler's calls:
 * kafkajs has no heartbeat thread, so a slice that takes longer than the session (slow peers on
 * a loaded machine) would cost the member its partitions mid-slice, and the slice, redelivered to
 * the next owner, could take as long again. kafkajs shares one heartbeat request among concurrent
 * callers. A failed one (a rebalance, a lost session) is left to the loop's own next heartbeat,
 * which throws it to kafkajs. The handlers bound their own waits (gRPC deadlines, HTTP timeouts),
 * so a member kept alive this way is one still working.
 */
function withKeepAlive(eachBatch: NonNullable<ConsumerRunConfig['eachBatch']>, intervalMs: number, log: Logger) {
  return async (payload: EachBatchPayload) => {
    const timer = setInterval(() => {
      payload.heartbeat().catch((err: unknown) => log.debug({ err }, 'heartbeat during a batch failed; the batch loop will see it'));
    }, intervalMs);
    try {
      await eachBatch(payload);
    } finally {
      clearInterval(timer);
    }
  };
}

/**
 * Runs a kafkajs consumer from connect to disconnect: ensures the dead-letter topics (best
 * effort: without create rights they may still exist or be auto-created), connects a
 * dead-letter producer, subscribes, runs `run(session)`'s eachBatch, and returns a handle
 * whose stop() waits for the batch in hand, leaves the group and disconnects. A crash kafkajs
 * will not restart is logged and handed to onCrash.
 */
export async function startConsumerLifecycle(
  opts: ConsumerLifecycleOptions,
  run: (session: ConsumerSession) => ConsumerRunConfig,
): Promise<ConsumerHandle> {
  const { kafka, groupId } = opts;
  const log = opts.logger.child({ component: 'kafka-consumer', group: groupId });
  const deadLetterTopic = (topic: string) => opts.deadLetterTopic ?? defaultDeadLetterTopic(topic);
  const heartbeatInterval = opts.heartbeatInterval ?? 3_000;
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: opts.sessionTimeout ?? 30_000,
    heartbeatInterval,
    maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 1_000,
    ...(opts.minBytes !== undefined && { minBytes: opts.minBytes }),
  });
  const deadLetters = createProducer(kafka, { logger: opts.logger });
  const abort = new AbortController();
  const metrics = consumerMetrics(groupId);
  // A rebalance moves partitions to other members: their lag is theirs to report from then on.
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => metrics.assigned(payload.memberAssignment));

  let stopping: Promise<void> | undefined;
  let running = false;
  const stop = () => {
    stopping ??= (async () => {
      abort.abort();
      try {
        // Waits for the batch in hand, then leaves the group. A consumer still joining has no
        // batch in hand, and its join may wait out a dead member's session: do not wait for it.
        const disconnected = consumer.disconnect();
        if (running) await disconnected;
        else await Promise.race([disconnected.catch(() => undefined), new Promise((r) => setTimeout(r, 1_000).unref())]);
      } finally {
        metrics.forget();
        await deadLetters.disconnect();
      }
      log.info('consumer stopped');
    })();
    return stopping;
  };

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopping) return;
    log.fatal({ err: payload.error }, 'kafka consumer crashed and will not restart');
    opts.onCrash?.(payload.error);
  });

  const start = async () => {
    try {
      await ensureTopics(kafka, opts.ensureTopics ?? []);
      const dlqTopics = [...new Set(opts.topics.map(deadLetterTopic))];
      await ensureTopics(
        kafka,
        dlqTopics.map((topic) => ({ topic })),
      ).catch((err: unknown) => log.warn({ err, topics: dlqTopics }, 'could not ensure dead-letter topics'));
      await deadLetters.connect();
      await consumer.connect();
      await consumer.subscribe({ topics: opts.topics, fromBeginning: opts.fromBeginning ?? false });
      const config = run({ log, deadLetters, deadLetterTopic, signal: abort.signal, metrics });
      await consumer.run({
        ...config,
        ...(config.eachBatch && { eachBatch: withKeepAlive(withLag(config.eachBatch, metrics), heartbeatInterval, log) }),
      });
    } catch (err) {
      await stop().catch(() => undefined);
      throw err;
    }
    running = true;
    log.info({ topics: opts.topics }, 'consumer running');
  };
  const handle = { name: `kafka-consumer:${groupId}`, stop, close: stop };
  if (!opts.background) {
    await start();
    return handle;
  }
  let stoppedByCaller = false;
  const stopByCaller = () => ((stoppedByCaller = true), stop());
  start().catch((err: unknown) => {
    if (stoppedByCaller) return;
    log.fatal({ err }, 'kafka consumer could not start');
    opts.onCrash?.(err as Error);
  });
  return { ...handle, stop: stopByCaller, close: stopByCaller };
}
