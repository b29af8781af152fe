/** An SMS campaign: a survey channel plus the message template its SMS use. */
export interface SmsCampaign {
  id: string;
  accountId: string;
  name: string;
  nodeId: string;
  flowId: string;
  /** The survey service's channel that hands out the personal survey links. */
  channelId: string;
  messageTemplate: string;
  createdAt: Date;
}

/** One accepted recipient of a sharing. */
export interface Recipient {
  /** Normalized: E.164 digits without "+". */
  phone: string;
  /** As the caller wrote it; the key of its custom attributes and built-in responses. */
  input: string;
  attributes: Record<string, string>;
  builtInResponses: Record<string, string>;
}

export interface RejectedPhone {
  phone: string;
  reason: string;
  /** The line of a CSV workflow's file (the header is line 1). */
  row?: number;
}

export interface SmsSharing {
  id: string;
  accountId: string;
  campaignId: string;
  createdAt: Date;
  accepted: number;
  duplicates: number;
  rejected: RejectedPhone[];
}

/** What the API answers on creation (docs/api.md "SMS sharing"). */
export interface SharingSummary {
  id: string;
  accepted: number;
  rejected: number;
  duplicate: number;
  rejectedPhones: RejectedPhone[];
}

/** One `sms.dispatch` event: everything the consumer needs, so it never reads the sharing back. */
export interface DispatchEvent {
  sharingId: string;
  accountId: string;
  campaignId: string;
  recipient: Recipient;
}
