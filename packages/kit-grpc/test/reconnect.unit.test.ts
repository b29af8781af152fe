import { createServer, type Server } from 'node:net';
import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import { afterAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../src/index.js';

/**
 * A peer that is down: every connection is accepted and cut at once (a failed handshake), and
 * the time of each attempt is kept. grpc-js's default backoff (1 s growing ×1.6 to 120 s) would
 * leave gaps of 4 s and more after a few seconds; a gateway would answer 503 all that time
 * after the service came back.
 */
describe('client reconnect backoff', () => {
  let peer: Server | undefined;
  afterAll(() => peer?.close());

  it('keeps trying a down peer at least every 2.5 s', async () => {
    const attempts: number[] = [];
    peer = createServer((socket) => {
      attempts.push(performance.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => peer!.listen(0, '127.0.0.1', resolve));
    const { port } = peer.address() as { port: number };
    const client = createGrpcClient(EchoServiceClient, `127.0.0.1:${port}`, { deadlineMs: 200 });
    const started = performance.now();
    const windowMs = 9_000;
    // Callers keep calling (as a gateway under load does); each call fails fast.
    while (performance.now() - started < windowMs) {
      await client.echo({ message: 'x', delayMs: 0, failKind: '' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    client.close();
    const times = [started, ...attempts, started + windowMs];
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...gaps)).toBeLessThan(2_600);
  }, 20_000);
});
