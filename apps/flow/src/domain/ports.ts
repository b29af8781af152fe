import type { Flow } from './flow.js';

/** Storage port of flows. Lookups are always scoped by account. */
export interface FlowRepository {
  insert(flow: Flow): Promise<void>;
  findById(accountId: string, flowId: string): Promise<Flow | null>;
}
