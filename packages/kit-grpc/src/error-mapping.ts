import { Metadata, status, type StatusObject } from '@grpc/grpc-js';
import { AppError, ERROR_TABLE, errors, kindForGrpcStatus, toPublicError, type ErrorKind } from '@feedback/kit-core';
import { ErrorDetail } from '@feedback/proto/feedback/common/v1/error_details';

/** Binary trailer holding the ErrorDetail protobuf on every non-OK status we send. */
export const ERROR_DETAIL_KEY = 'feedback-error-bin';

/**
 * The gRPC status for a thrown value. Only an AppError's message and fields reach the peer; an
 * unreachable database or object store becomes UNAVAILABLE (503 / 13009 at the gateway), anything
 * else a generic INTERNAL (the caller logs the original).
 */
export function appErrorToStatus(err: unknown): StatusObject {
  const app = toPublicError(err);
  const metadata = new Metadata();
  const detail = ErrorDetail.encode({ code: app.code, message: app.message, fields: app.fields }).finish();
  metadata.set(ERROR_DETAIL_KEY, Buffer.from(detail));
  return { code: ERROR_TABLE[app.kind].grpc, details: app.message, metadata };
}

function decodeDetail(metadata: Metadata | null | undefined): ErrorDetail | undefined {
  const raw = metadata?.get(ERROR_DETAIL_KEY)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    return ErrorDetail.decode(raw);
  } catch {
    return undefined;
  }
}

/**
 * A failed call as an AppError: from the ErrorDetail trailer when the peer sent one, else from
 * the status code alone (DEADLINE_EXCEEDED, UNAVAILABLE and CANCELLED become 'unavailable'). A peer's
 * free-text details are not trusted to be public, so without a detail the table message is used.
 */
export function statusToAppError(err: { code?: number; metadata?: Metadata | null }): AppError {
  const code = err.code ?? status.UNKNOWN;
  const detail = decodeDetail(err.metadata);
  // A call the peer cut (e.g. forced shutdown) did not fail on its merits: retryable, not a 500.
  if (!detail && code === status.CANCELLED) return errors.unavailable();
  if (!detail) return new AppError(kindForGrpcStatus(code));
  // Several kinds share a gRPC code (invalid / unsupported_media_type), so the 13xxx code decides.
  const exact = (Object.keys(ERROR_TABLE) as ErrorKind[]).find((k) => ERROR_TABLE[k].code === detail.code && ERROR_TABLE[k].grpc === code);
  const kind = exact ?? kindForGrpcStatus(code);
  return new AppError(kind, detail.message || undefined, detail.fields, detail.code || ERROR_TABLE[kind].code);
}
