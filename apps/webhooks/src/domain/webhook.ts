/** Event types an endpoint may subscribe to (docs/api.md "Webhooks"). */
export const EVENT_TYPES = [
  'survey.answered',
  'sms.delivered',
  'sms.failed',
  'sms.opted_out',
  'sharing.completed',
  'file.expired',
  'file.processed',
] as const;
/** Sent by SendTestEvent only, whatever the endpoint subscribed to. */
export const TEST_EVENT = 'webhook.test';
/** The disabled reason of an endpoint the operator turned off: only the operator turns it on again. */
export const OPERATOR_DISABLED = 'operator';
export type EventType = (typeof EVENT_TYPES)[number] | typeof TEST_EVENT;

/** A secret sealed by the SecretCipher port: the domain never holds a key. */
export interface SealedSecret {
  keyId: string;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

export interface StoredSecret {
  sealed: SealedSecret;
  /** null: the current secret; a date: a rotated-out secret that keeps signing until then. */
  expiresAt: Date | null;
}

export interface Endpoint {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /** Why the service disabled it, OPERATOR_DISABLED when the operator did; '' otherwise. */
  disabledReason: string;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: Date | null;
  secrets: StoredSecret[];
  createdAt: Date;
  updatedAt: Date;
}

/** An event as the webhooks service raises it, from any topic. */
export interface WebhookEvent {
  /** Stable across redeliveries of the record: a delivery is unique per endpoint and event id. */
  id: string;
  accountId: string;
  type: EventType;
  timestamp: Date;
  data: Record<string, unknown>;
}

export interface Attempt {
  at: Date;
  /** 0 when no answer came. */
  statusCode: number;
  error: string;
  latencyMs: number;
  /** The first 1 KiB of the answer. */
  responseBody: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface Delivery {
  id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The webhook-id header, the same on every attempt and replay. */
  webhookId: string;
  /** The exact JSON body signed and sent on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  /** Index into the retry schedule of the next failure's delay. */
  retryIndex: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  note: string;
}
