import { randomUUID } from 'node:crypto';
import { SecretCipher, systemClock, type Logger } from '@feedback/kit-core';
import type { Db } from 'mongodb';
import { CachedEndpointRepository } from './adapters/cached-endpoint.repository.js';
import { addressGuard } from './adapters/http/address-guard.js';
import { httpTransport, urlPolicy } from './adapters/http/webhook.transport.js';
import { MongoDeliveryRepository } from './adapters/mongo/delivery.repository.js';
import { MongoEndpointRepository } from './adapters/mongo/endpoint.repository.js';
import { MongoTestSendCounter } from './adapters/mongo/test-send.counter.js';
import type { WebhooksDeps } from './domain/ports.js';

interface Infrastructure {
  db: Db;
  logger: Logger;
  secretKey: Buffer;
  previousSecretKeys: Buffer[];
  allowHttp: boolean;
  allowedCidrs: Parameters<typeof addressGuard>[0];
  retrySchedule: number[];
  disableAfterMs: number;
  timeoutMs: number;
  leaseMs: number;
  /** The keyed hashes of who a delivery body is about (data erasure); none kept without it. */
  subjectHashes?: (body: string) => string[];
  maxEndpointsPerAccount: number;
  testSendsPerMinute: number;
}

/**
 * How long the consumer and the sender trust an endpoint lookup: a change made through another
 * replica (disabled, deleted, a new URL or secret) is seen within this (docs/api.md "Webhooks").
 */
const ENDPOINT_CACHE_MS = 2_000;

/**
 * Endpoint secrets at rest (they must be read back to sign, so they cannot be hashed): sealed under
 * WEBHOOKS_SECRET_KEY with the endpoint id as associated data, so a sealed secret copied to another
 * endpoint's document does not open.
 */
export const webhooksSecretCipher = (current: Buffer, previous: readonly Buffer[] = []) =>
  new SecretCipher(current, previous, {
    settings: { key: 'WEBHOOKS_SECRET_KEY', previousKeys: 'WEBHOOKS_SECRET_PREVIOUS_KEYS', what: 'an endpoint secret' },
  });

/** The real adapters behind the domain's ports. */
export function webhooksDeps(infra: Infrastructure): WebhooksDeps {
  const guard = addressGuard(infra.allowedCidrs);
  return {
    endpoints: new CachedEndpointRepository(new MongoEndpointRepository(infra.db), { ttlMs: ENDPOINT_CACHE_MS, maxEntries: 10_000 }),
    deliveries: new MongoDeliveryRepository(infra.db, infra.subjectHashes),
    testSends: new MongoTestSendCounter(infra.db),
    cipher: webhooksSecretCipher(infra.secretKey, infra.previousSecretKeys),
    transport: httpTransport({ guard, allowHttp: infra.allowHttp, timeoutMs: infra.timeoutMs }),
    urlPolicy: urlPolicy(guard, infra.allowHttp),
    settings: {
      retrySchedule: infra.retrySchedule,
      disableAfterMs: infra.disableAfterMs,
      rotationOverlapMs: 24 * 3_600_000,
      leaseMs: infra.leaseMs,
      maxEndpointsPerAccount: infra.maxEndpointsPerAccount,
      testSendsPerMinute: infra.testSendsPerMinute,
    },
    clock: systemClock,
    newId: randomUUID,
    random: Math.random,
    logger: infra.logger,
  };
}
