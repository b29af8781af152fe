import type { Logger } from '@feedback/kit-core';
import type { ConsumerHandle } from '@feedback/kit-kafka';
import type { Kafka } from 'kafkajs';
import type { MessagingEnv } from '../env.js';
import type { AcceptGate } from '../intake/adapters/accept-gate.js';
import { runDispatchConsumer } from './adapters/kafka/dispatch.consumer.js';
import type { PriorityLane } from './adapters/kafka/dispatch.publisher.js';
import type { DispatchDeps } from './ports.js';

/** Partitions of the small sharings' lane (sms.dispatch.priority), all read at once by each replica. */
export const PRIORITY_PARTITIONS = 6;

/** The small sharings' lane: its own topic and group, named after the main ones unless set. */
export function priorityLane(config: MessagingEnv): PriorityLane & { groupId: string } {
  return {
    topic: config.SMS_DISPATCH_PRIORITY_TOPIC ?? `${config.SMS_DISPATCH_TOPIC}.priority`,
    maxRecipients: config.SMS_DISPATCH_PRIORITY_MAX_RECIPIENTS,
    groupId: config.SMS_DISPATCH_PRIORITY_GROUP ?? `${config.SMS_DISPATCH_GROUP}.priority`,
  };
}

/** The sms.dispatch consumer and the small sharings' lane's, both joining their groups in the background. */
export async function startDispatchConsumers(o: {
  kafka: Kafka;
  config: MessagingEnv;
  deps: DispatchDeps;
  gate: AcceptGate;
  logger: Logger;
}): Promise<[main: ConsumerHandle, priority: ConsumerHandle]> {
  const { kafka, config, deps, logger } = o;
  const common = {
    kafka,
    deps,
    logger,
    maxAttempts: config.SMS_DISPATCH_MAX_ATTEMPTS,
    concurrency: config.SMS_DISPATCH_CONCURRENCY,
    batchSize: config.SMS_DISPATCH_BATCH_SIZE,
    sessionTimeoutMs: config.SMS_DISPATCH_SESSION_TIMEOUT_MS,
    background: true,
    // Without its consumer the service would silently stop sending: restart it instead.
    onCrash: () => process.kill(process.pid, 'SIGTERM'),
  };
  const main = await runDispatchConsumer({
    ...common,
    topic: config.SMS_DISPATCH_TOPIC,
    groupId: config.SMS_DISPATCH_GROUP,
    gate: o.gate,
    partitions: config.SMS_DISPATCH_PARTITIONS_CONCURRENTLY,
  });
  // The small sharings' lane: every partition at once and no accept gate, so an event there waits
  // neither for a large sharing's backlog nor for another partition's slow provider. Read even when
  // the lane is off (0), so what an earlier setting published there still goes out.
  const lane = priorityLane(config);
  const priority = await runDispatchConsumer({ ...common, topic: lane.topic, groupId: lane.groupId, partitions: PRIORITY_PARTITIONS });
  return [main, priority];
}
