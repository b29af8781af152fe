import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { AppError } from '@feedback/kit-core';
import { ErrorDetail } from '@feedback/proto/feedback/common/v1/error_details';
import { EchoServiceClient, type EchoRequest } from '@feedback/proto/feedback/testing/v1/echo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appErrorToStatus,
  callMetadata,
  createGrpcClient,
  ERROR_DETAIL_KEY,
  statusToAppError,
  type GrpcClient,
  type RunningGrpcServer,
} from '../src/index.js';
import { captureLogger, SECRET, startEchoServer, type LogEntry } from './echo.fixture.js';

let server: RunningGrpcServer;
let client: GrpcClient<EchoServiceClient>;
let raw: EchoServiceClient;
let logs: LogEntry[];

beforeAll(async () => {
  const captured = captureLogger();
  logs = captured.entries;
  server = await startEchoServer({ logger: captured.logger });
  client = createGrpcClient(EchoServiceClient, server.address);
  raw = new EchoServiceClient(server.address, credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  raw.close();
  await server.shutdown();
});

function rawEcho(req: EchoRequest): Promise<ServiceError> {
  return new Promise((resolve, reject) =>
    raw.echo(req, callMetadata(), { deadline: Date.now() + 5_000 }, (err) => (err ? resolve(err) : reject(new Error('call succeeded')))),
  );
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('call succeeded'),
    (e: unknown) => e,
  );

// delay 0 throws inside the handler synchronously, delay 5 rejects its promise.
describe.each([0, 5])('error mapping (handler delay %i ms)', (delayMs) => {
  it('an AppError reaches the client as the same kind, code and fields', async () => {
    const err = await rejection(client.echo({ message: 'm', delayMs, failKind: 'not_found' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'not_found', code: 13002, fields: { flow_id: 'x' }, message: 'Requested resource not found!' });
  });

  it('on the wire it is NOT_FOUND with an ErrorDetail trailer', async () => {
    const err = await rawEcho({ message: 'm', delayMs, failKind: 'not_found' });
    expect(err.code).toBe(status.NOT_FOUND);
    const bin = err.metadata.get(ERROR_DETAIL_KEY)[0];
    expect(Buffer.isBuffer(bin)).toBe(true);
    expect(ErrorDetail.decode(bin as Buffer)).toEqual({ code: 13002, message: 'Requested resource not found!', fields: { flow_id: 'x' } });
  });

  it('a plain Error becomes internal without its text, and is logged with its stack', async () => {
    const before = logs.length;
    const err = await rejection(client.echo({ message: 'm', delayMs, failKind: 'plain' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'internal', code: 13008 });
    expect((err as AppError).message).not.toContain('hunter2');

    const wire = await rawEcho({ message: 'm', delayMs, failKind: 'plain' });
    expect(wire.code).toBe(status.INTERNAL);
    expect(wire.details).not.toContain('hunter2');
    expect(JSON.stringify(wire.metadata.toJSON())).not.toContain('hunter2');

    const logged = logs.slice(before).find((e) => e.level === 50);
    const loggedErr = logged?.obj.err as Error | undefined;
    expect(loggedErr?.message).toBe(SECRET);
    expect(loggedErr?.stack).toContain('echo.fixture.ts');
    expect(logged?.obj.method).toBe('/feedback.testing.v1.EchoService/Echo');
  });
});

describe('status ↔ AppError', () => {
  it('keeps kinds that share a gRPC code apart by their 13xxx code', async () => {
    const err = await rejection(client.echo({ message: 'm', delayMs: 0, failKind: 'unsupported_media_type' }));
    expect(err).toMatchObject({ kind: 'unsupported_media_type', code: 13007 });
    const invalid = await rejection(client.echo({ message: 'm', delayMs: 0, failKind: 'invalid' }));
    expect(invalid).toMatchObject({ kind: 'invalid', code: 13000, message: 'An error occured' });
  });

  it('keeps a more specific 13xxx code and message', () => {
    const back = statusToAppError(appErrorToStatus(new AppError('conflict', 'Directory name taken', { name: 'in' }, 13010)));
    expect(back).toMatchObject({ kind: 'conflict', code: 13010, message: 'Directory name taken', fields: { name: 'in' } });
  });

  it('maps a bare status from a foreign peer by code, without trusting its text', () => {
    const bare = (code: number) => statusToAppError({ code, metadata: new Metadata() });
    expect(bare(status.DEADLINE_EXCEEDED).kind).toBe('unavailable');
    expect(bare(status.UNAVAILABLE).kind).toBe('unavailable');
    expect(bare(status.CANCELLED).kind).toBe('unavailable');
    expect(bare(status.NOT_FOUND)).toMatchObject({ kind: 'not_found', code: 13002, fields: {} });
    expect(bare(status.UNKNOWN).kind).toBe('internal');
  });
});
