import { createConnection, createServer, type Server as NetServer, type Socket } from 'node:net';
import { AppError } from '@feedback/kit-core';
import { createLogger, loadConfig, META, runWithContext } from '@feedback/kit-core/runtime';
import { Metadata } from '@grpc/grpc-js';
import { FlowServiceClient, FlowServiceService, type FlowServiceServer } from '@feedback/proto/feedback/flow/v1/flow';
import { EchoServiceClient } from '@feedback/proto/feedback/testing/v1/echo';
import { afterEach, describe, expect, it } from 'vitest';
import { createGrpcClient, grpcServerEnv, startGrpcServer, type RunningGrpcServer } from '../src/index.js';
import { echoService, startEchoServer } from './echo.fixture.js';

const silent = createLogger('kit-grpc-test', 'silent');
const running: RunningGrpcServer[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await Promise.all(running.splice(0).map((s) => s.shutdown()));
});

/** A flow service on a free loopback port, shut down after the test. */
async function serveFlow(implementation: FlowServiceServer) {
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ definition: FlowServiceService, implementation }],
    logger: silent,
  });
  running.push(server);
  return server;
}

/**
 * A TCP relay in front of a server, counting the connections clients open through it. kill() is
 * what a process killed with SIGKILL looks like to its clients: every connection drops with no
 * GOAWAY, and new ones are refused (the server behind it merely stops hearing from them).
 */
async function relay(port: number) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const listener: NetServer = createServer((inbound) => {
    connections += 1;
    const outbound = createConnection(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const kill = () => {
    listener.close();
    sockets.forEach((s) => s.resetAndDestroy());
  };
  closers.push(kill);
  return { port: (listener.address() as { port: number }).port, connections: () => connections, kill };
}

const target = (ports: number[]) => `ipv4:${ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
const echo = (message: string, delayMs = 0) => ({ message, delayMs, failKind: '' });

/** Two echo servers, each behind a relay, counting their calls; `die` kills the relay of the first server that gets it, mid-call. */
async function twoEchoServers() {
  const counts = [0, 0];
  let killed = -1;
  const relays: Awaited<ReturnType<typeof relay>>[] = [];
  for (const i of [0, 1]) {
    const server = await startEchoServer({
      onCall: (req) => {
        counts[i]! += 1;
        if (req.message === 'die' && killed < 0) {
          killed = i;
          // After the handler started: the call is on the server, its answer not yet sent.
          setTimeout(() => relays[i]!.kill(), 20);
        }
      },
    });
    running.push(server);
    relays.push(await relay(server.port));
  }
  return { target: target(relays.map((r) => r.port)), counts, killed: () => killed };
}

describe('round_robin over several addresses', () => {
  it('spreads calls of one client over both servers', async () => {
    const { target, counts } = await twoEchoServers();
    const client = createGrpcClient(EchoServiceClient, target);
    closers.push(() => client.close());
    for (let i = 0; i < 40; i++) await client.echo(echo(`m${i}`));
    expect(counts[0]! + counts[1]!).toBe(40);
    // Both connect at once; once both are ready each call goes to the next one.
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(15);
  });

  it('a read cut by a server that went away is repeated on the other one', async () => {
    const { target, counts, killed } = await twoEchoServers();
    const client = createGrpcClient(EchoServiceClient, target);
    closers.push(() => client.close());
    for (let i = 0; i < 4; i++) await client.echo(echo('warm'));
    const before = [...counts];

    await expect(client.echo(echo('die', 300))).resolves.toMatchObject({ message: 'die' });
    const survivor = 1 - killed();
    expect(counts[killed()]! - before[killed()]!).toBe(1);
    expect(counts[survivor]! - before[survivor]!).toBe(1);
    // And calls go on, to the survivor.
    for (let i = 0; i < 5; i++) await client.echo(echo('after'));
    expect(counts[survivor]! - before[survivor]!).toBe(6);
  });

  it('a write cut the same way is not repeated: UNAVAILABLE, one attempt in all', async () => {
    const calls = { createFlow: 0, getFlow: 0 };
    const relays: Awaited<ReturnType<typeof relay>>[] = [];
    let killedOnce = false;
    for (let i = 0; i < 2; i++) {
      const implementation: FlowServiceServer = {
        createFlow: (_call, callback) => {
          calls.createFlow += 1;
          if (killedOnce) return callback(new AppError('internal', 'must not be reached'));
          killedOnce = true;
          setTimeout(() => relays[i]!.kill(), 20);
        },
        getFlow: (_call, callback) => {
          calls.getFlow += 1;
          callback(new AppError('not_found', undefined, { flow_id: 'f' }));
        },
      };
      const server = await serveFlow(implementation);
      relays.push(await relay(server.port));
    }
    const client = createGrpcClient(FlowServiceClient, target(relays.map((r) => r.port)));
    closers.push(() => client.close());
    await expect(client.getFlow({ accountId: 'a', flowId: 'f' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(client.getFlow({ accountId: 'a', flowId: 'f' })).rejects.toMatchObject({ kind: 'not_found' });
    // Not UNAVAILABLE, so not repeated either.
    expect(calls.getFlow).toBe(2);

    await expect(client.createFlow({ accountId: 'a', name: 'n', questions: [] })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls.createFlow).toBe(1);
  });
});

describe('a read failed after its answer began', () => {
  it('is issued once more by the client (grpc-js no longer retries it), with the caller\u2019s request id', async () => {
    const seen: string[] = [];
    const implementation: FlowServiceServer = {
      createFlow: (_call, callback) => callback(new AppError('internal', 'not called')),
      getFlow: (call, callback) => {
        seen.push(String(call.metadata.get(META.requestId)[0]));
        if (seen.length > 1) return callback(new AppError('not_found', undefined, { flow_id: 'f' }));
        // Headers first: the call is committed, so grpc-js's retry policy no longer applies.
        call.sendMetadata(new Metadata());
        setTimeout(() => callback(new AppError('unavailable')), 10);
      },
    };
    const server = await serveFlow(implementation);
    const client = createGrpcClient(FlowServiceClient, `127.0.0.1:${server.port}`);
    closers.push(() => client.close());

    const call = runWithContext({ requestId: 'req-reissued-1' }, () => client.getFlow({ accountId: 'a', flowId: 'f' }));
    await expect(call).rejects.toMatchObject({ kind: 'not_found' });
    expect(seen).toEqual(['req-reissued-1', 'req-reissued-1']);
  });
});

describe('server connection age', () => {
  it('sends clients away after the age, so they reconnect (and re-resolve); calls in flight finish and none fails', async () => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoService()],
      logger: silent,
      maxConnectionAgeMs: 400,
      maxConnectionAgeGraceMs: 5_000,
    });
    running.push(server);
    const relayed = await relay(server.port);
    const client = createGrpcClient(EchoServiceClient, `127.0.0.1:${relayed.port}`);
    closers.push(() => client.close());

    // A call longer than the age: the GOAWAY stops new calls on its connection, not this one.
    const long = client.echo(echo('long', 1_500));
    const started = performance.now();
    let calls = 0;
    while (performance.now() - started < 2_000) {
      await client.echo(echo('short'));
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await expect(long).resolves.toMatchObject({ message: 'long' });
    expect(calls).toBeGreaterThan(20);
    // 2 s at 400 ms (±10%) each: at least three connections, one per age.
    expect(relayed.connections()).toBeGreaterThanOrEqual(3);
  });

  it('env: 30 s and a 5 min grace by default, each overridable; a service passes its own grace default', () => {
    expect(loadConfig(grpcServerEnv(), {})).toEqual({ GRPC_MAX_CONNECTION_AGE_MS: 30_000, GRPC_MAX_CONNECTION_AGE_GRACE_MS: 300_000 });
    expect(loadConfig(grpcServerEnv({ maxConnectionAgeGraceMs: 3_600_000 }), {}).GRPC_MAX_CONNECTION_AGE_GRACE_MS).toBe(3_600_000);
    expect(loadConfig(grpcServerEnv(), { GRPC_MAX_CONNECTION_AGE_MS: '60000', GRPC_MAX_CONNECTION_AGE_GRACE_MS: '0' })).toEqual({
      GRPC_MAX_CONNECTION_AGE_MS: 60_000,
      GRPC_MAX_CONNECTION_AGE_GRACE_MS: 0,
    });
    expect(() => loadConfig(grpcServerEnv(), { GRPC_MAX_CONNECTION_AGE_MS: '10' })).toThrow(/GRPC_MAX_CONNECTION_AGE_MS/);
  });
});
