import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Who is calling and under which request id; travels HTTP → gRPC metadata → Kafka headers. */
export interface RequestContext {
  requestId: string;
  accountId?: string;
  tokenId?: string;
}

/** Metadata / header names, in one place. */
export const META = {
  requestId: 'x-request-id',
  accountId: 'x-account-id',
  tokenId: 'x-token-id',
} as const;

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function newRequestId(): string {
  return randomUUID();
}

/** Accepts a caller-supplied id only if it is short and printable, so logs cannot be forged. */
export function sanitizeRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
