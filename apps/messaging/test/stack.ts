import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, readStackFile } from '@feedback/dev-stack';
import { PersonalDataProtector } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { createGrpcClient, startGrpcServer, type GrpcClient, type RunningGrpcServer } from '@feedback/kit-grpc';
import { connectMongo, ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { MessagingServiceClient, MessagingServiceService } from '@feedback/proto/feedback/messaging/v1/messaging';
import { acceptGate } from '../src/intake/adapters/accept-gate.js';
import { startDlrServer, type RunningDlrServer } from '../src/providers/adapters/http/dlr.server.js';
import { messagingIndexes } from '../src/shared/adapters/mongo/indexes.js';
import { sensitiveAttributes } from '../src/shared/adapters/mongo/sensitive-attributes.js';
import { KANNEL_DELIVERY_RULE } from '../src/status/domain/delivery-report.js';
import type { MessagingFeatures } from '../src/features.js';
import type { MessageRepository } from '../src/shared/ports.js';
import { messagingHandlers } from '../src/grpc/messaging.handlers.js';

/** The running local stack (`./stack up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('messaging-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const uniq = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;
/** The TCKN, and `vkn` as a deployment's own sensitive attribute, sealed under a key of the test run. */
export const testSensitive = sensitiveAttributes(new PersonalDataProtector(randomBytes(32)), ['vkn']);

/** A database of its own for one test file, on the stack's MongoDB, with messaging's indexes. */
export async function openTestDb(): Promise<MongoHandle> {
  const mongo = await connectMongo({ url: stack.mongo_url, dbName: uniq('messaging_test'), logger });
  await ensureIndexes(mongo.db, messagingIndexes);
  return mongo;
}

/** Drops what openTestDb made and closes it (a failed open leaves nothing to drop). */
export async function dropTestDb(mongo: MongoHandle | undefined): Promise<void> {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(50);
  }
}

const KANNEL_SH = fileURLToPath(new URL('../../../infra/kannel.sh', import.meta.url));

export interface KannelSettings {
  KANNEL_SENDSMS_URL: string;
  KANNEL_SENDSMS_USER: string;
  KANNEL_SENDSMS_PASSWORD: string;
  KANNEL_FAKESMSC_LOG: string;
}

/**
 * Starts Kannel (bearerbox, smsbox, fakesmsc) unless it runs; `stop` stops it only if this
 * call started it, so a developer's running gateway is left alone.
 */
export function ensureKannel(): { settings: KannelSettings; stop: () => void } {
  const running = execFileSync(KANNEL_SH, ['status'], { encoding: 'utf8' }).startsWith('kannel: up');
  if (!running) execFileSync(KANNEL_SH, ['start'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const settings = Object.fromEntries(
    execFileSync(KANNEL_SH, ['settings'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  ) as unknown as KannelSettings;
  return { settings, stop: () => (running ? undefined : void execFileSync(KANNEL_SH, ['stop'], { stdio: 'ignore' })) };
}

/** A port nothing listens on (fetch refuses "bad ports" such as 9, so not those). */
export const closedPort = freePort;

/**
 * The delivery-report listener on a free port of 127.0.0.1 over `messages`, signed with `secret`,
 * whose deployment provider reads reports as Kannel's (field "status", 1 delivered).
 */
export function startKannelRuleDlrServer(messages: MessageRepository, secret: string): Promise<RunningDlrServer> {
  return startDlrServer({
    host: '127.0.0.1',
    port: 0,
    secret,
    statusParam: 'status',
    rule: KANNEL_DELIVERY_RULE,
    deps: { messages, reportEvents: { reported: async () => undefined }, clock: { now: () => new Date() } },
    logger,
  });
}

/** The messaging gRPC service in this process over `deps` (real adapters), and a client of it. */
export async function serveMessaging(
  deps: MessagingFeatures,
): Promise<{ server: RunningGrpcServer; client: GrpcClient<MessagingServiceClient> }> {
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ definition: MessagingServiceService, implementation: messagingHandlers(deps, acceptGate()) }],
  });
  return { server, client: createGrpcClient(MessagingServiceClient, server.address, { deadlineMs: 20_000 }) };
}
