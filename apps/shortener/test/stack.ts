import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createKafka } from '@feedback/kit-kafka';

/** Against the running local stack (`infra/infra.sh up`); never a mock. */
export const stack = readStackFile();
export const logger = createLogger('shortener-test', process.env.TEST_LOG_LEVEL ?? 'silent');
export const kafka = createKafka({ brokers: stack.kafka_brokers, clientId: 'shortener-test', logger });
export const uniq = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Polls until the condition holds; fails naming `what` after the timeout. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
