import { counter, histogram } from '@feedback/kit-metrics';

const records = counter({
  name: 'kafka_producer_records_total',
  help: 'Records this process published, by topic and result (ok: every in-sync replica has them; failed)',
  labelNames: ['topic', 'result'] as const,
});
const sendTime = histogram({
  name: 'kafka_producer_send_seconds',
  help: 'Time a publish took until every in-sync replica had its records (retries included), by topic',
  labelNames: ['topic'] as const,
});

/** Records one publish of `count` records to `topic`. Topics are the app's own few (and their .dlq). */
export function recordPublish(topic: string, count: number, ok: boolean, seconds: number): void {
  records.inc({ topic, result: ok ? 'ok' : 'failed' }, count);
  sendTime.observe({ topic }, seconds);
}
