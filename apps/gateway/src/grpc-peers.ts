import type { Logger } from '@feedback/kit-core';
import { env } from '@feedback/kit-core/runtime';
import { createGrpcClient, type GrpcClient, type GrpcClientConstructor } from '@feedback/kit-grpc';
import { HealthCheckResponse_ServingStatus, HealthClient } from '@feedback/proto/grpc/health/v1/health';
import type { Client } from '@grpc/grpc-js';

export interface PeerOptions {
  /** Deadline of a unary call. */
  deadlineMs: number;
  /** Deadline of a long stream (an upload or download through the file service). */
  streamDeadlineMs: number;
  logger: Logger;
}

/** A gRPC service the gateway calls: where it listens by default, and how its port is made. */
export interface GrpcPeer<P> {
  defaultAddr: string;
  connect(addr: string, opts: PeerOptions): { port: P; close(): void };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PeerTable = Record<string, GrpcPeer<any>>;
type PortOf<T> = T extends GrpcPeer<infer P> ? P : never;
type AddrVar<K extends string> = `${Uppercase<K>}_GRPC_ADDR`;
export type PeerAddresses<T extends PeerTable> = { [K in keyof T & string as AddrVar<K>]: string };

const addrVar = (name: string) => `${name.toUpperCase()}_GRPC_ADDR`;

/** A peer whose calls are all unary: the kit-grpc client is its port. */
export function unaryPeer<C extends Client>(Ctor: GrpcClientConstructor<C>, defaultAddr: string): GrpcPeer<GrpcClient<C>> {
  return {
    defaultAddr,
    connect(addr, opts) {
      const client = createGrpcClient(Ctor, addr, opts);
      return { port: client, close: () => client.close() };
    },
  };
}

/** `<NAME>_GRPC_ADDR` for every peer of the table, for env.ts. */
export function peerAddressVars<T extends PeerTable>(table: T) {
  const vars = Object.entries(table).map(([name, peer]) => [addrVar(name), env.string(peer.defaultAddr)]);
  return Object.fromEntries(vars) as { [K in keyof T & string as AddrVar<K>]: ReturnType<typeof env.string> };
}

/** Connects every peer of the table: their ports by name, a readiness check each, and one close. */
export function connectPeers<T extends PeerTable>(table: T, addresses: PeerAddresses<T>, opts: PeerOptions) {
  const addressOf = (name: string) => (addresses as Record<string, string>)[addrVar(name)]!;
  const names = Object.keys(table);
  const connected = names.map((name) => ({ name, ...table[name]!.connect(addressOf(name), opts) }));
  const health = names.map((name) => ({ name, client: createGrpcClient(HealthClient, addressOf(name), { ...opts, deadlineMs: 1000 }) }));
  return {
    ports: Object.fromEntries(connected.map((c) => [c.name, c.port])) as { [K in keyof T]: PortOf<T[K]> },
    readiness: health.map(({ name, client }) => ({
      name,
      check: async () => {
        const res = await client.check({ service: '' });
        if (res.status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error(`${name} not serving`);
      },
    })),
    close() {
      connected.forEach((c) => c.close());
      health.forEach((h) => h.client.close());
    },
  };
}
