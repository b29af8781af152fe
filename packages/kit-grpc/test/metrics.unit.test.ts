import { createLogger } from '@feedback/kit-core/runtime';
import { metricsRegistry } from '@feedback/kit-metrics';
import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient, type RunningGrpcServer } from '../src/index.js';
import { startEchoServer } from './echo.fixture.js';

/** prom-client sets a histogram value's series name (_bucket, _count) but does not type it. */
const seriesName = (v: object) => (v as { metricName?: string }).metricName;

const echo = { grpc_type: 'unary', grpc_service: 'feedback.testing.v1.EchoService', grpc_method: 'Echo' };

/** The value of one series of a counter, or of a histogram's _count, now. */
async function value(metric: string, labels: Record<string, string>, series = metric): Promise<number> {
  const m = metricsRegistry.getSingleMetric(metric);
  if (!m) return 0;
  const { values } = await m.get();
  const hit = values.find((v) => (seriesName(v) ?? metric) === series && Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return hit?.value ?? 0;
}

describe('gRPC metrics', () => {
  let server: RunningGrpcServer;
  let client: GrpcClient<EchoServiceClient>;
  beforeAll(async () => {
    server = await startEchoServer({ logger: createLogger('kit-grpc-test', 'silent') });
    client = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 2_000 });
  });
  afterAll(async () => {
    client.close();
    await server.shutdown();
  });

  it('count and time every call on both sides by service, method and code name', async () => {
    const codes = ['OK', 'NOT_FOUND', 'INTERNAL', 'PERMISSION_DENIED'];
    const before = await Promise.all(
      codes.flatMap((grpc_code) => [
        value('grpc_server_handled_total', { ...echo, grpc_code }),
        value('grpc_client_handled_total', { ...echo, grpc_code }),
        value('grpc_server_handling_seconds', { ...echo, grpc_code }, 'grpc_server_handling_seconds_count'),
        value('grpc_client_handling_seconds', { ...echo, grpc_code }, 'grpc_client_handling_seconds_count'),
      ]),
    );
    await client.echo({ message: 'a', delayMs: 0, failKind: '' });
    await client.echo({ message: 'b', delayMs: 5, failKind: '' });
    await expect(client.echo({ message: 'c', delayMs: 0, failKind: 'not_found' })).rejects.toMatchObject({ kind: 'not_found' });
    // A plain Error is answered as INTERNAL, and counted so on both sides.
    await expect(client.echo({ message: 'd', delayMs: 0, failKind: 'plain' })).rejects.toMatchObject({ kind: 'internal' });
    const after = await Promise.all(
      codes.flatMap((grpc_code) => [
        value('grpc_server_handled_total', { ...echo, grpc_code }),
        value('grpc_client_handled_total', { ...echo, grpc_code }),
        value('grpc_server_handling_seconds', { ...echo, grpc_code }, 'grpc_server_handling_seconds_count'),
        value('grpc_client_handling_seconds', { ...echo, grpc_code }, 'grpc_client_handling_seconds_count'),
      ]),
    );
    const delta = after.map((v, i) => v - before[i]!);
    // Per code: server handled, client handled, server timings, client timings.
    expect(delta).toEqual([2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
  });

  it('count a call the client gave up on as DEADLINE_EXCEEDED on the client side', async () => {
    const labels = { ...echo, grpc_code: 'DEADLINE_EXCEEDED' };
    const before = await value('grpc_client_handled_total', labels);
    await expect(client.echo({ message: 'slow', delayMs: 300, failKind: '' }, { deadlineMs: 30 })).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect((await value('grpc_client_handled_total', labels)) - before).toBe(1);
  });

  it('time calls into the histogram buckets (a 5 ms call is above 1 ms)', async () => {
    const labels = { ...echo, grpc_code: 'OK', le: '0.001' } as Record<string, string>;
    const m = await metricsRegistry.getSingleMetric('grpc_server_handling_seconds')!.get();
    const bucket = m.values.find(
      (v) => seriesName(v) === 'grpc_server_handling_seconds_bucket' && Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l),
    );
    const count = m.values.find(
      (v) => seriesName(v) === 'grpc_server_handling_seconds_count' && v.labels.grpc_code === 'OK' && v.labels.grpc_method === 'Echo',
    );
    expect(bucket!.value).toBeLessThan(count!.value);
  });

  it('label the method with its name, never a per-request value', async () => {
    const text = await metricsRegistry.metrics();
    const methods = new Set([...text.matchAll(/grpc_server_handled_total\{[^}]*grpc_method="([^"]+)"/g)].map((m) => m[1]));
    expect([...methods]).toEqual(['Echo']);
  });
});
