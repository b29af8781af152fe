import { randomBytes } from 'node:crypto';

/**
 * The erasure and retention topics and consumer groups of an app process a test starts, its own.
 * With the stack's, the process joins the stack's groups (one killed, or stopped while still
 * joining, holds its partitions until its session ends: the stack's erasures stalled 30 s and
 * more) and reads every earlier erasure request from the beginning, answering progress for its
 * own database on the stack's progress topic. `topics` lists them for the test's clean-up (their
 * dead-letter topics too).
 */
export function privateErasureAndRetention(): { env: Record<string, string>; topics: string[] } {
  const id = randomBytes(4).toString('hex');
  const topicEnv = {
    DATA_ERASURE_REQUESTED_TOPIC: `test.data.erasure.requested_${id}`,
    DATA_ERASURE_PROGRESS_TOPIC: `test.data.erasure.progress_${id}`,
    ACCOUNT_RETENTION_TOPIC: `test.account.retention_${id}`,
  };
  return {
    env: {
      ...topicEnv,
      DATA_ERASURE_GROUP: `test-data-erasure-${id}`,
      DATA_ERASURE_PROGRESS_GROUP: `test-data-erasure-progress-${id}`,
      ACCOUNT_RETENTION_GROUP: `test-retention-${id}`,
    },
    topics: Object.values(topicEnv).flatMap((t) => [t, `${t}.dlq`]),
  };
}
