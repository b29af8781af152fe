import { Metadata } from '@grpc/grpc-js';
import { currentContext, META, newRequestId, sanitizeRequestId, type RequestContext } from '@feedback/kit-core/runtime';

/** Outgoing call metadata carrying the ids of the given (default: current) request context. */
export function callMetadata(ctx: RequestContext | undefined = currentContext()): Metadata {
  const md = new Metadata();
  if (!ctx) return md;
  md.set(META.requestId, ctx.requestId);
  if (ctx.accountId) md.set(META.accountId, ctx.accountId);
  if (ctx.tokenId) md.set(META.tokenId, ctx.tokenId);
  return md;
}

function first(md: Metadata, key: string): string | undefined {
  const value = md.get(key)[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The request context of an incoming call; a missing or malformed request id gets a fresh one. */
export function contextFromMetadata(md: Metadata): RequestContext {
  const ctx: RequestContext = { requestId: sanitizeRequestId(first(md, META.requestId)) ?? newRequestId() };
  const accountId = first(md, META.accountId);
  const tokenId = first(md, META.tokenId);
  if (accountId) ctx.accountId = accountId;
  if (tokenId) ctx.tokenId = tokenId;
  return ctx;
}
