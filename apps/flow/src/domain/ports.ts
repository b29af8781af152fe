import type { Clock } from '@feedback/kit-core';
import type { Flow } from './flow.js';

/** Storage port of flows. Lookups are always scoped by account. */
export interface FlowRepository {
  insert(flow: Flow): Promise<void>;
  findById(accountId: string, flowId: string): Promise<Flow | null>;
}

/** What the flow service's use cases are given; wiring.ts builds the real one. */
export interface FlowDeps {
  flows: FlowRepository;
  newId: () => string;
  clock: Clock;
}
