import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, createLogger, loadConfig } from '@feedback/kit-core/runtime';
import { makeTestCertificates, type TestCertificates } from '@feedback/dev-stack';
import type { Kafka } from 'kafkajs';
import { createKafka, kafkaConnection, kafkaSecurityEnv } from '../src/index.js';
import { startSecuredBroker, type SecuredBroker } from './fixtures/secured-broker.js';

/**
 * The Kafka security settings against a real SASL_SSL listener: a broker of this test's own
 * (one start for every case), reached through env → kafkaConnection → createKafka exactly as
 * an app's env.ts and main.ts do.
 */
const SCRAM = { name: 'svc-scram', password: `scram-${randomUUID()}` };
const PLAIN = { name: 'svc-plain', password: `plain-${randomUUID()}` };

let dir: string;
let certs: TestCertificates;
let broker: SecuredBroker;
const logLines: string[] = [];
const logger = createLogger('kit-kafka-sasl-test', 'debug', {}, { write: (line: string) => void logLines.push(line) });

/** `refusal`: no retries, so a refused handshake or login answers at once instead of after backoff. */
function kafkaFrom(vars: Record<string, string>, opts: { refusal?: boolean } = {}): Kafka {
  const config = loadConfig({ KAFKA_BROKERS: env.list(broker.address), ...kafkaSecurityEnv }, vars);
  return createKafka({
    ...kafkaConnection(config),
    clientId: 'sasl-ssl-test',
    logger,
    connectionTimeout: 10_000,
    ...(opts.refusal && { retry: { retries: 0 } }),
  });
}

/** Produces one record and reads it back with a consumer group, both over the secured listener. */
async function roundTrip(kafka: Kafka): Promise<string> {
  const topic = `secured-${randomUUID()}`;
  const value = `hello-${randomUUID()}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value }] });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: `g-${randomUUID()}` });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no record consumed within 30 s')), 30_000);
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      void consumer
        .run({
          eachMessage: async ({ message }) => {
            clearTimeout(timer);
            resolve(message.value!.toString());
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

async function connectError(kafka: Kafka): Promise<Error> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
  } catch (err) {
    return err as Error;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  throw new Error('connected, but the test expected a refusal');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kafka-sasl-ssl-'));
  certs = makeTestCertificates(dir, ['IP:127.0.0.1']);
  broker = await startSecuredBroker({ dir, certs, scramUser: SCRAM, plainUser: PLAIN });
}, 180_000);

afterAll(async () => {
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Kafka over SASL_SSL, configured from the environment', () => {
  it('produces and consumes with SCRAM-SHA-512, the password read from a file', async () => {
    const passwordFile = join(dir, 'scram-password');
    writeFileSync(passwordFile, `${SCRAM.password}\n`); // as `echo` or a Secret mount may leave it
    const kafka = kafkaFrom({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: certs.caFile,
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: SCRAM.name,
      KAFKA_SASL_PASSWORD_FILE: passwordFile,
    });
    expect(await roundTrip(kafka)).toMatch(/^hello-/);
  });

  it('produces and consumes with PLAIN, the password in the variable', async () => {
    const kafka = kafkaFrom({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: certs.caFile,
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: PLAIN.name,
      KAFKA_SASL_PASSWORD: PLAIN.password,
    });
    expect(await roundTrip(kafka)).toMatch(/^hello-/);
  });

  it('a wrong password fails with an authentication error naming the mechanism', async () => {
    const err = await connectError(
      kafkaFrom(
        {
          KAFKA_TLS: 'true',
          KAFKA_TLS_CA_FILE: certs.caFile,
          KAFKA_SASL_MECHANISM: 'scram-sha-512',
          KAFKA_SASL_USERNAME: SCRAM.name,
          KAFKA_SASL_PASSWORD: 'not-the-password',
        },
        { refusal: true },
      ),
    );
    expect(err.name).toBe('KafkaJSSASLAuthenticationError');
    expect(err.message).toMatch(/SASL SCRAM SHA512 authentication failed/);
    expect(err.message).not.toContain('not-the-password');
  });

  it('a broker certificate from a CA the client does not trust is refused', async () => {
    const err = await connectError(
      kafkaFrom(
        {
          KAFKA_TLS: 'true',
          KAFKA_TLS_CA_FILE: certs.otherCaFile,
          KAFKA_SASL_MECHANISM: 'scram-sha-512',
          KAFKA_SASL_USERNAME: SCRAM.name,
          KAFKA_SASL_PASSWORD: SCRAM.password,
        },
        { refusal: true },
      ),
    );
    expect(`${err.message} ${String((err.cause as Error | undefined)?.message ?? '')}`).toMatch(
      /unable to verify the first certificate|unable to get local issuer certificate|self[- ]signed certificate/,
    );
  });

  it('checks the server name by default; KAFKA_TLS_CHECK_SERVER_NAME=false skips only that check', async () => {
    // The certificate names 127.0.0.1 only; "localhost" reaches the same listener.
    const vars = {
      KAFKA_BROKERS: broker.address.replace('127.0.0.1', 'localhost'),
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: certs.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: SCRAM.name,
      KAFKA_SASL_PASSWORD: SCRAM.password,
    };
    const err = await connectError(kafkaFrom(vars, { refusal: true }));
    expect(`${err.message} ${String((err.cause as Error | undefined)?.message ?? '')}`).toMatch(/localhost.*altnames|altnames.*localhost/s);

    const admin = kafkaFrom({ ...vars, KAFKA_TLS_CHECK_SERVER_NAME: 'false' }).admin();
    await admin.connect();
    expect(Array.isArray(await admin.listTopics())).toBe(true);
    await admin.disconnect();
  });

  it('without TLS the SASL_SSL listener is not reached', async () => {
    const err = await connectError(
      kafkaFrom(
        { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: SCRAM.name, KAFKA_SASL_PASSWORD: SCRAM.password },
        { refusal: true },
      ),
    );
    expect(err.name).toMatch(/^KafkaJS/);
  });

  it('never logs a password, even at debug level', () => {
    const all = logLines.join('');
    expect(all.length).toBeGreaterThan(1000); // the cases above did log (debug): the check is not vacuous
    expect(all).not.toContain(SCRAM.password);
    expect(all).not.toContain(PLAIN.password);
  });
});
