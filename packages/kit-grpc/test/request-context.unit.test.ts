import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status,
  type ClientReadableStream,
  type ClientWritableStream,
  type ServerReadableStream,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { AppError } from '@feedback/kit-core';
import { currentContext, runWithContext } from '@feedback/kit-core/runtime';
import { EchoServiceClient, EchoServiceService, type EchoRequest, type EchoResponse } from '@feedback/proto/feedback/testing/v1/echo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMetadata, createGrpcClient, statusToAppError, type GrpcClient, type RunningGrpcServer } from '../src/index.js';
import { captureLogger, startEchoServer, type LogEntry } from './echo.fixture.js';

// Streaming shapes are not in the test proto; reuse its messages under hand-made paths.
const { requestSerialize, requestDeserialize, responseSerialize, responseDeserialize } = EchoServiceService.echo;
const codec = { requestSerialize, requestDeserialize, responseSerialize, responseDeserialize };
const StreamsService = {
  repeat: { path: '/feedback.testing.v1.StreamsService/Repeat', requestStream: false, responseStream: true, ...codec },
  collect: { path: '/feedback.testing.v1.StreamsService/Collect', requestStream: true, responseStream: false, ...codec },
} as const;

const contextReply = (message: string): EchoResponse => ({
  message,
  requestId: currentContext()?.requestId ?? '',
  accountId: currentContext()?.accountId ?? '',
});

const streamsImplementation = {
  /** Two replies carrying the context; fail_kind 'throw' or 'emit' then fails the stream. */
  async repeat(call: ServerWritableStream<EchoRequest, EchoResponse>) {
    call.write(contextReply('1'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    call.write(contextReply('2'));
    const gone = new AppError('gone', undefined, { file_id: 'f1' });
    if (call.request.failKind === 'throw') throw gone;
    if (call.request.failKind === 'emit') call.emit('error', gone);
    else call.end();
  },
  /** Answers from inside the 'end' listener, which grpc-js fires from its own callbacks. */
  collect(call: ServerReadableStream<EchoRequest, EchoResponse>, callback: (err: null, res: EchoResponse) => void) {
    const seen: string[] = [];
    call.on('data', (req: EchoRequest) => seen.push(`${req.message}@${currentContext()?.requestId ?? 'none'}`));
    call.on('end', () => callback(null, contextReply(seen.join(','))));
  },
};

interface StreamsClient {
  repeat(req: EchoRequest, md: Metadata): ClientReadableStream<EchoResponse>;
  collect(md: Metadata, cb: (err: ServiceError | null, res?: EchoResponse) => void): ClientWritableStream<EchoRequest>;
  close(): void;
}
const StreamsClient = makeGenericClientConstructor(StreamsService, 'StreamsService') as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
) => StreamsClient;

let server: RunningGrpcServer;
let client: GrpcClient<EchoServiceClient>;
let streams: StreamsClient;
let logs: LogEntry[];

beforeAll(async () => {
  const captured = captureLogger();
  logs = captured.entries;
  server = await startEchoServer({
    logger: captured.logger,
    extra: [{ definition: StreamsService, implementation: streamsImplementation }],
  });
  client = createGrpcClient(EchoServiceClient, server.address);
  streams = new StreamsClient(server.address, credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  streams.close();
  await server.shutdown();
});

const echo = { message: 'hi', delayMs: 0, failKind: '' };

describe('request context over gRPC', () => {
  it('carries request id and account id from the caller’s context to the handler', async () => {
    const res = await runWithContext({ requestId: 'req-123', accountId: 'acc-9', tokenId: 'tok-1' }, () => client.echo(echo));
    expect(res).toEqual({ message: 'hi', requestId: 'req-123', accountId: 'acc-9' });
  });

  it('keeps the context across the handler’s own awaits', async () => {
    const res = await runWithContext({ requestId: 'req-delayed' }, () => client.echo({ ...echo, delayMs: 20 }));
    expect(res.requestId).toBe('req-delayed');
    expect(res.accountId).toBe('');
  });

  it('sends a call’s own context instead of the current one', async () => {
    const own = { requestId: 'req-own', accountId: 'acc-own' };
    expect(await client.echo(echo, { context: own })).toEqual({ message: 'hi', requestId: 'req-own', accountId: 'acc-own' });
    const res = await runWithContext({ requestId: 'req-ambient' }, () => client.echo(echo, { context: own }));
    expect(res.requestId).toBe('req-own');
  });

  it('gives a call without (or with a forged) request id a fresh one', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const none = await client.echo(echo);
    expect(none.requestId).toMatch(uuid);
    const forged = await runWithContext({ requestId: 'x'.repeat(200) }, () => client.echo(echo));
    expect(forged.requestId).toMatch(uuid);
  });

  it('callMetadata holds the current ids under the META names', () => {
    const md = runWithContext({ requestId: 'r1', accountId: 'a1', tokenId: 't1' }, () => callMetadata());
    expect(md.getMap()).toEqual({ 'x-request-id': 'r1', 'x-account-id': 'a1', 'x-token-id': 't1' });
    expect(callMetadata().getMap()).toEqual({});
  });

  it('logs each call at debug with its duration and request id', async () => {
    const before = logs.length;
    await runWithContext({ requestId: 'req-logged' }, () => client.echo(echo));
    const line = logs.slice(before).find((e) => e.msg === 'grpc call');
    expect(line?.level).toBe(20);
    expect(line?.obj).toMatchObject({ method: '/feedback.testing.v1.EchoService/Echo' });
    expect(typeof line?.obj.duration_ms).toBe('number');
  });
});

describe('streaming handlers', () => {
  it('run in the caller’s context, and listeners registered on the call do too', async () => {
    const replies = await new Promise<EchoResponse[]>((resolve, reject) => {
      const got: EchoResponse[] = [];
      const md = runWithContext({ requestId: 'req-stream', accountId: 'acc-s' }, () => callMetadata());
      streams
        .repeat({ ...echo }, md)
        .on('data', (r: EchoResponse) => got.push(r))
        .on('end', () => resolve(got))
        .on('error', reject);
    });
    expect(replies).toEqual([
      { message: '1', requestId: 'req-stream', accountId: 'acc-s' },
      { message: '2', requestId: 'req-stream', accountId: 'acc-s' },
    ]);

    const collected = await new Promise<EchoResponse | undefined>((resolve, reject) => {
      const md = runWithContext({ requestId: 'req-collect' }, () => callMetadata());
      const call = streams.collect(md, (err, res) => (err ? reject(err) : resolve(res)));
      call.write({ ...echo, message: 'a' });
      call.write({ ...echo, message: 'b' });
      call.end();
    });
    expect(collected).toEqual({ message: 'a@req-collect,b@req-collect', requestId: 'req-collect', accountId: '' });
  });

  it.each(['throw', 'emit'])('map an error (%s) mid-stream to its status and ErrorDetail', async (failKind) => {
    const err = await new Promise<ServiceError>((resolve, reject) => {
      const call = streams.repeat({ ...echo, failKind }, new Metadata());
      call
        .on('data', () => {})
        .on('end', () => reject(new Error('stream ended without error')))
        .on('error', resolve);
    });
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(statusToAppError(err)).toMatchObject({ kind: 'gone', code: 13006, fields: { file_id: 'f1' } });
  });
});
