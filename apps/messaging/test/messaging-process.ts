import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { privateErasureAndRetention } from '@feedback/dev-stack';
import { createGrpcClient, type GrpcClient } from '@feedback/kit-grpc';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { MessagingServiceClient } from '@feedback/proto/feedback/messaging/v1/messaging';
import { closedPort, sleep, stack, uniq } from './stack.js';
import type { IsolatedHost } from './netns.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface MessagingProcess {
  child: ChildProcess;
  client: GrpcClient<MessagingServiceClient>;
  /** Its /metrics endpoint. */
  metricsUrl: string;
  /** What it wrote to stderr/stdout (warnings and errors), for failure messages. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export const freePort = closedPort;

/**
 * The environment of a private messaging process on the stack: its own database, topics and
 * groups, the stack's peers, the recording provider, a DLR secret of its own. Each test adds its
 * ports and what it changes (the provider, a topic it made).
 */
export function processEnv(dbName: string): Record<string, string> {
  return {
    GRPC_HOST: '127.0.0.1',
    MONGO_URL: stack.mongo_url,
    MONGO_DB: dbName,
    KAFKA_BROKERS: stack.kafka_brokers.join(','),
    SMS_DISPATCH_TOPIC: uniq('sms.dispatch'),
    SMS_STATUS_TOPIC: uniq('sms.status'),
    SHARING_COMPLETED_TOPIC: uniq('sharing.completed'),
    SMS_DISPATCH_GROUP: uniq('dispatch'),
    FILE_UPLOADED_TOPIC: uniq('file.uploaded'),
    FILE_UPLOADED_GROUP: uniq('csv'),
    // Topics of its own: in the stack's groups it would take the stack's clicks and answers away from it.
    CLICKS_TOPIC: uniq('link.clicked'),
    CLICK_FACTS_GROUP: uniq('click-facts'),
    SURVEY_ANSWERED_TOPIC: uniq('survey.answered'),
    ANSWER_FACTS_GROUP: uniq('answer-facts'),
    // And of the erasure and retention consumers: a killed one would stall the stack's erasures.
    ...privateErasureAndRetention().env,
    FLOW_GRPC_ADDR: stack.grpc.flow,
    SMS_PROVIDER: 'outbox',
    SURVEY_GRPC_ADDR: stack.grpc.survey,
    SHORTENER_GRPC_ADDR: stack.grpc.shortener,
    FILE_GRPC_ADDR: stack.grpc.file,
    DLR_HOST: '127.0.0.1',
    DLR_SECRET: randomBytes(32).toString('base64url'),
    // Required by messaging (docs/decisions.md "Erasure of one person's data"): a key of the test's own.
    PERSONAL_DATA_KEY: randomBytes(32).toString('base64'),
  };
}

/**
 * A private messaging service (`node --import tsx src/main.ts`, as infra/apps.sh starts it) with
 * the given environment, resolved once its gRPC port answers. With `host` it runs inside that
 * network namespace (netns.ts) and is reached at the namespace's address: give it GRPC_HOST and
 * METRICS_HOST that listen there.
 */
export async function startMessagingProcess(
  env: Record<string, string>,
  readyTimeoutMs = 30_000,
  host?: IsolatedHost,
): Promise<MessagingProcess> {
  const fullEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'warn',
    // Its own metrics listener: the stack's messaging has the default port.
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: String(await freePort()),
    ...env,
  };
  const args = ['--import', 'tsx', 'src/main.ts'];
  const opts = { cwd: APP_DIR, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[] };
  const child = host ? host.spawn(process.execPath, args, opts) : spawn(process.execPath, args, opts);
  const addr = host?.nsAddr ?? '127.0.0.1';
  let out = '';
  const collect = (b: Buffer) => void (out = (out + b.toString()).slice(-20_000));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = once(child, 'exit');
  const client = createGrpcClient(MessagingServiceClient, `${addr}:${env.GRPC_PORT}`, { deadlineMs: 30_000 });
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`messaging exited with ${child.exitCode}:\n${out}`);
    try {
      await client.listSmsMessages({ accountId: 'ready-check', phone: '', pageSize: 1, pageToken: '' }, { deadlineMs: 1_000 });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`messaging did not answer within ${readyTimeoutMs} ms:\n${out}`);
      }
      await sleep(200);
    }
  }
  return {
    child,
    client,
    metricsUrl: `http://${fullEnv.METRICS_HOST === '0.0.0.0' ? addr : fullEnv.METRICS_HOST}:${fullEnv.METRICS_PORT}/metrics`,
    output: () => out,
    async kill(signal) {
      client.close();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * A flow, an SMS campaign on it and a sharing of `phones`, accepted whole by `proc` (else it
 * throws); answers the sharing id.
 */
export async function shareTo(
  proc: MessagingProcess,
  account: string,
  phones: string[],
  campaign: { name: string; messageTemplate: string } = { name: 'Several dispatchers', messageTemplate: 'Görüşünüz: {{link}}' },
): Promise<string> {
  const flows = createGrpcClient(FlowServiceClient, stack.grpc.flow, { deadlineMs: 30_000 });
  const { flow } = await flows.createFlow({
    accountId: account,
    name: campaign.name,
    questions: [{ key: 'nps', body: { tr: 'Tavsiye eder misiniz?' }, style: 'nps', options: [] }],
  });
  flows.close();
  const { campaign: made } = await proc.client.createSmsCampaign({
    accountId: account,
    name: campaign.name,
    nodeId: randomUUID(),
    nodeName: 'Şube',
    flowId: flow!.id,
    messageTemplate: campaign.messageTemplate,
    linkTtlDays: 0,
    reminders: [],
    transliterate: false,
  });
  const res = await proc.client.createSmsSharing(
    {
      accountId: account,
      requestKey: '',
      sendAt: '',
      campaignId: made!.id,
      phoneNumbers: phones,
      customAttributes: {},
      builtInResponses: {},
    },
    { deadlineMs: 120_000 },
  );
  if (res.accepted !== phones.length || res.rejected !== 0 || res.duplicate !== 0) {
    throw new Error(
      `sharing not accepted whole: ${JSON.stringify({ accepted: res.accepted, rejected: res.rejected, duplicate: res.duplicate })}`,
    );
  }
  return res.sharingId;
}
