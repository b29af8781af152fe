import { credentials, status, type ServiceError } from '@grpc/grpc-js';
import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthClient,
  type HealthCheckResponse,
} from '@feedback/proto/grpc/health/v1/health';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningGrpcServer } from '../src/index.js';
import { ECHO_SERVICE_NAME, startEchoServer } from './echo.fixture.js';

let server: RunningGrpcServer | undefined;
const clients: HealthClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.shutdown();
  server = undefined;
});

function healthClient(address: string): HealthClient {
  const client = new HealthClient(address, credentials.createInsecure());
  clients.push(client);
  return client;
}

function check(client: HealthClient, service: string): Promise<ServingStatus> {
  return new Promise((resolve, reject) => {
    client.check({ service }, (err, res) => (err ? reject(err) : resolve(res.status)));
  });
}

describe('grpc.health.v1', () => {
  it('answers SERVING for the server and each registered service on a port picked by the OS', async () => {
    server = await startEchoServer();
    expect(server.port).toBeGreaterThan(0);
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    const client = healthClient(server.address);

    expect(await check(client, '')).toBe(ServingStatus.SERVING);
    expect(await check(client, ECHO_SERVICE_NAME)).toBe(ServingStatus.SERVING);
    await expect(check(client, 'no.such.Service')).rejects.toMatchObject({ code: status.NOT_FOUND });
  });

  it('follows setServing', async () => {
    server = await startEchoServer();
    const client = healthClient(server.address);

    server.setServing(false);
    expect(await check(client, '')).toBe(ServingStatus.NOT_SERVING);
    expect(await check(client, ECHO_SERVICE_NAME)).toBe(ServingStatus.NOT_SERVING);
    server.setServing(true);
    expect(await check(client, ECHO_SERVICE_NAME)).toBe(ServingStatus.SERVING);
  });

  it('stops saying SERVING once shutdown begins, while a call is still draining', async () => {
    let started!: () => void;
    const callStarted = new Promise<void>((resolve) => (started = resolve));
    server = await startEchoServer({ onCall: started });
    const client = healthClient(server.address);
    expect(await check(client, '')).toBe(ServingStatus.SERVING);

    // Keep the server busy so it is mid-shutdown, not already gone, when we ask.
    const echo = new EchoServiceClient(server.address, credentials.createInsecure());
    const slow = new Promise<void>((resolve) => echo.echo({ message: 'slow', delayMs: 500, failKind: '' }, () => resolve()));
    await callStarted;
    const closing = server.shutdown();

    const answer = await check(client, '').then(
      (s) => ({ status: s }),
      (err: ServiceError) => ({ code: err.code }),
    );
    expect([{ status: ServingStatus.NOT_SERVING }, { code: status.UNAVAILABLE }]).toContainEqual(answer);
    await slow;
    await closing;
    echo.close();
  });

  it('Watch streams the current status, then NOT_SERVING, and ends so shutdown is not held open', async () => {
    server = await startEchoServer();
    const client = healthClient(server.address);
    const seen: ServingStatus[] = [];
    const stream = client.watch({ service: ECHO_SERVICE_NAME });
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('data', (res: HealthCheckResponse) => seen.push(res.status));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    await new Promise<void>((resolve) => stream.once('data', () => resolve()));

    await server.shutdown();
    await ended;
    expect(seen).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
  });

  it('Watch answers SERVICE_UNKNOWN for an unregistered service', async () => {
    server = await startEchoServer();
    const stream = healthClient(server.address).watch({ service: 'no.such.Service' });
    const first = await new Promise<HealthCheckResponse>((resolve) => stream.once('data', resolve));
    expect(first.status).toBe(ServingStatus.SERVICE_UNKNOWN);
    stream.on('error', () => {}); // the cancel surfaces as CANCELLED
    stream.cancel();
  });
});
