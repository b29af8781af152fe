import { AppError, type ErrorKind } from '@feedback/kit-core';

/**
 * `opted_out`: the phone is on the account's suppression list; its record says so and no provider
 * saw it. `skipped`: a reminder that does not go out (answered, expired, cancelled;
 * reminder-texts.ts). `in_flight`: claimed and being handed to a slow provider in the background
 * (HandOverTracker); its outcome is recorded when the provider answers. `retrying`: refused for
 * now by such a provider; its event is published again after a backoff.
 */
export type SendOutcome = 'sent' | 'already_handled' | 'unknown' | 'failed' | 'opted_out' | 'skipped' | 'in_flight' | 'retrying';

/** An event's outcome, or the error it failed with (the consumer retries it with backoff, or dead-letters it). */
export type DispatchResult = SendOutcome | Error;

/**
 * An event that can never be handled: its campaign is gone, a peer refused it for good (invalid,
 * not found, failed precondition), or its text cannot be rendered. Dead-lettered at once, never
 * retried. `settled`: its recipient's record was stored `failed` with the reason, so the sharing
 * completes.
 */
export class UndeliverableEventError extends Error {
  override name = 'UndeliverableEventError';
  settled = false;
}

/** Refusals that a retry would only repeat: the request itself is wrong, or what it names is gone. */
const PERMANENT_KINDS: ReadonlySet<ErrorKind> = new Set([
  'invalid',
  'not_found',
  'gone',
  'permission_denied',
  'too_large',
  'unsupported_media_type',
]);

/** A failure of the event's own that no retry can mend (UNAVAILABLE, DEADLINE_EXCEEDED, a provider's retry status are not). */
export const isPermanentFailure = (err: unknown): boolean =>
  err instanceof UndeliverableEventError || (err instanceof AppError && PERMANENT_KINDS.has(err.kind));

/** The provider refused before accepting; the caller (the Kafka consumer) retries with backoff. */
export class RetriableSendError extends Error {
  override name = 'RetriableSendError';
}

/** Outcomes that settle a first message (SETTLED_STATUSES); `already_handled` was counted when it was handled. */
const SETTLES: ReadonlySet<SendOutcome> = new Set(['sent', 'unknown', 'failed', 'opted_out']);

export const settles = (r: DispatchResult) => (r instanceof UndeliverableEventError ? r.settled : !(r instanceof Error) && SETTLES.has(r));

export const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
