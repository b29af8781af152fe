import { randomUUID } from 'node:crypto';
import { systemClock } from '@feedback/kit-core';
import type { Db } from 'mongodb';
import { CachedFlowRepository } from './adapters/cached-flow.repository.js';
import { MongoFlowRepository } from './adapters/mongo/flow.repository.js';
import type { FlowDeps } from './domain/ports.js';

interface Infrastructure {
  db: Db;
  flowCacheEntries: number;
}

/** The real adapters behind the domain's ports. */
export function flowServiceDeps(infra: Infrastructure): FlowDeps {
  return {
    flows: new CachedFlowRepository(new MongoFlowRepository(infra.db), infra.flowCacheEntries),
    newId: randomUUID,
    clock: systemClock,
  };
}
