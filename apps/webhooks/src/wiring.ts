import { randomUUID } from 'node:crypto';
import { systemClock, type Logger } from '@feedback/kit-core';
import type { Db } from 'mongodb';
import { AesSecretCipher } from './adapters/crypto/secret-cipher.js';
import { addressGuard } from './adapters/http/address-guard.js';
import { httpTransport, urlPolicy } from './adapters/http/webhook.transport.js';
import { MongoDeliveryRepository } from './adapters/mongo/delivery.repository.js';
import { MongoEndpointRepository } from './adapters/mongo/endpoint.repository.js';
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
}

/** The real adapters behind the domain's ports. */
export function webhooksDeps(infra: Infrastructure): WebhooksDeps {
  const guard = addressGuard(infra.allowedCidrs);
  return {
    endpoints: new MongoEndpointRepository(infra.db),
    deliveries: new MongoDeliveryRepository(infra.db),
    cipher: new AesSecretCipher(infra.secretKey, infra.previousSecretKeys),
    transport: httpTransport({ guard, allowHttp: infra.allowHttp, timeoutMs: infra.timeoutMs }),
    urlPolicy: urlPolicy(guard, infra.allowHttp),
    settings: {
      retrySchedule: infra.retrySchedule,
      disableAfterMs: infra.disableAfterMs,
      rotationOverlapMs: 24 * 3_600_000,
      leaseMs: infra.leaseMs,
    },
    clock: systemClock,
    newId: randomUUID,
    random: Math.random,
    logger: infra.logger,
  };
}
