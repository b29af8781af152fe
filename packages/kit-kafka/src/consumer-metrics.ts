import { counter, gauge } from '@feedback/kit-metrics';

/** How a record ended: handled at the first attempt, handled after retries, or dead-lettered. */
type RecordResult = 'ok' | 'retried' | 'dead_lettered';

const records = counter({
  name: 'kafka_consumer_records_total',
  help: 'Records a consumer group finished in this process, by topic and result (ok, retried, dead_lettered)',
  labelNames: ['group', 'topic', 'result'] as const,
});
const deadLettered = counter({
  name: 'kafka_consumer_dead_lettered_total',
  help: 'Records a consumer group sent to a dead-letter topic, by the topic they came from',
  labelNames: ['group', 'topic', 'dead_letter_topic'] as const,
});
const lag = gauge({
  name: 'kafka_consumer_lag',
  help: "Records of a partition this process owns that its group has yet to finish, as of the partition's last fetch",
  labelNames: ['group', 'topic', 'partition'] as const,
});

/**
 * The metrics of one consumer group in this process. The lag is the partition's high watermark at
 * its last fetch minus the next offset to finish: it needs no extra request to the broker, and it
 * is exact while the consumer fetches; a consumer stuck on one record keeps showing the lag it had
 * at that record's fetch, which the records counter (flat) shows up. Each partition is reported
 * only by the member that owns it, so `sum by (group, topic)` over pods is the group's lag.
 */
export function consumerMetrics(group: string) {
  // Label sets bound once (prom-client otherwise hashes the label object on every record).
  const counted = new Map<string, { inc(n: number): void }>();
  const partitions = new Map<string, { labels: { group: string; topic: string; partition: string }; set(n: number): void }>();
  return {
    record(topic: string, result: RecordResult, count = 1) {
      if (count <= 0) return;
      const key = `${topic}\u0000${result}`;
      let child = counted.get(key);
      if (!child) counted.set(key, (child = records.labels({ group, topic, result })));
      child.inc(count);
    },
    deadLettered(topic: string, deadLetterTopic: string, count: number) {
      if (count > 0) deadLettered.inc({ group, topic, dead_letter_topic: deadLetterTopic }, count);
    },
    /** The partition's lag once every record before `nextOffset` is finished. */
    lag(topic: string, partition: number, highWatermark: string, nextOffset: string) {
      const key = `${topic}\u0000${partition}`;
      let p = partitions.get(key);
      if (!p) {
        const labels = { group, topic, partition: String(partition) };
        const child = lag.labels(labels);
        partitions.set(key, (p = { labels, set: (n) => child.set(n) }));
      }
      p.set(Math.max(0, Number(BigInt(highWatermark) - BigInt(nextOffset))));
    },
    /** After a rebalance: partitions now owned by another member are no longer reported here. */
    assigned(assignment: Record<string, number[]>) {
      for (const [key, p] of partitions) {
        if (!(assignment[p.labels.topic] ?? []).includes(Number(p.labels.partition))) {
          lag.remove(p.labels);
          partitions.delete(key);
        }
      }
    },
    /** The consumer stopped: it reports no partition. */
    forget() {
      this.assigned({});
    },
  };
}

export type ConsumerMetrics = ReturnType<typeof consumerMetrics>;
