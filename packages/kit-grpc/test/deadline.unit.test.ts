import { credentials, status, type ServiceError } from '@grpc/grpc-js';
import { AppError } from '@feedback/kit-core';
import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMetadata, createGrpcClient, type RunningGrpcServer } from '../src/index.js';
import { startEchoServer } from './echo.fixture.js';

let server: RunningGrpcServer;
beforeAll(async () => {
  server = await startEchoServer();
});
afterAll(() => server.shutdown());

describe('deadlines', () => {
  it('a raw call past its deadline fails with DEADLINE_EXCEEDED', async () => {
    const raw = new EchoServiceClient(server.address, credentials.createInsecure());
    const err = await new Promise<ServiceError | null>((resolve) =>
      raw.echo({ message: 'slow', delayMs: 1_000, failKind: '' }, callMetadata(), { deadline: Date.now() + 100 }, (e) => resolve(e)),
    );
    raw.close();
    expect(err?.code).toBe(status.DEADLINE_EXCEEDED);
  });

  it('createGrpcClient turns a missed default deadline into AppError unavailable', async () => {
    const client = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 100 });
    const err: unknown = await client.echo({ message: 'slow', delayMs: 1_000, failKind: '' }).catch((e: unknown) => e);
    client.close();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'unavailable', code: 13009 });
  });

  it('a per-call deadline overrides the client default', async () => {
    const client = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 5_000 });
    await expect(client.echo({ message: 'slow', delayMs: 1_000, failKind: '' }, { deadlineMs: 100 })).rejects.toMatchObject({
      kind: 'unavailable',
    });
    await expect(client.echo({ message: 'fast', delayMs: 0, failKind: '' })).resolves.toMatchObject({ message: 'fast' });
    client.close();
  });
});
