import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import { describe, expect, it } from 'vitest';
import { AppError } from '@feedback/kit-core';
import { createGrpcClient, startGrpcServer } from '../src/index.js';
import { captureLogger, echoService, startEchoServer } from './echo.fixture.js';

describe('graceful shutdown', () => {
  it('lets an in-flight call finish, then refuses new calls', async () => {
    let started!: () => void;
    const callStarted = new Promise<void>((resolve) => (started = resolve));
    const server = await startEchoServer({ onCall: (req) => req.message === 'slow' && started() });
    const client = createGrpcClient(EchoServiceClient, server.address);

    const inFlight = client.echo({ message: 'slow', delayMs: 500, failKind: '' });
    await callStarted;
    const closing = server.shutdown();

    await expect(inFlight).resolves.toMatchObject({ message: 'slow' });
    await closing;
    const late: unknown = await client.echo({ message: 'late', delayMs: 0, failKind: '' }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(AppError);
    expect(late).toMatchObject({ kind: 'unavailable' });

    const fresh = createGrpcClient(EchoServiceClient, server.address);
    await expect(fresh.echo({ message: 'late', delayMs: 0, failKind: '' })).rejects.toMatchObject({ kind: 'unavailable' });
    client.close();
    fresh.close();
  });

  it('cuts calls that outlive the grace period', async () => {
    let started!: () => void;
    const callStarted = new Promise<void>((resolve) => (started = resolve));
    const { logger, entries } = captureLogger();
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoService(() => started())],
      logger,
      shutdownGraceMs: 100,
    });
    const client = createGrpcClient(EchoServiceClient, server.address);

    const stuck = client.echo({ message: 'stuck', delayMs: 3_000, failKind: '' });
    await callStarted;
    await server.shutdown();
    await expect(stuck).rejects.toMatchObject({ kind: 'unavailable' });
    expect(entries.some((e) => e.level === 40 && e.msg?.includes('forcing shutdown'))).toBe(true);
    client.close();
  });
});
