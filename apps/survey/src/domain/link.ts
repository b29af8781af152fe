/**
 * Where one activation of a link was sent from: an SMS sharing's campaign, the sharing and the
 * message that carried the link, and the recipient's custom attributes as given (the sensitive
 * ones left out), so that an answer can be tied back to what it is about (an order, a store).
 * Each activation replaces it; the response of that activation keeps a copy.
 */
export interface SendContext {
  campaignId?: string;
  sharingId?: string;
  messageId?: string;
  customAttributes: Record<string, string>;
}

/** A customer's personal link of one channel: one per (account, channel, customer). */
export interface SurveyLink {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  nodeId: string;
  flowId: string;
  /** Snapshots of the channel at the last activation, so the active query reads one collection. */
  nodeName: string;
  flowName: string;
  channelName: string;
  token: string;
  /** Counts activations; a response belongs to one activation. */
  activation: number;
  activatedAt: Date;
  answeredAt: Date | null;
  expiresAt: Date;
  builtInResponses: Record<string, string>;
  createdAt: Date;
  /**
   * The phone (E.164 digits) the link was last activated for, when the activation named one (an
   * SMS): the customer found by an external id or e-mail may hold another phone, or none, and
   * messaging asks for its recipients' links by the phone it texted (GetSurveyLinkStates).
   */
  phone?: string;
  /** The last activation's; absent on links last activated before links kept it. */
  context?: SendContext;
}

export type LinkState = 'active' | 'answered' | 'expired';

/** Answered wins over expired: "you answered already" is the truer page for such a link. */
export function linkState(link: Pick<SurveyLink, 'answeredAt' | 'expiresAt'>, now: Date): LinkState {
  if (link.answeredAt) return 'answered';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

export const DAY_MS = 24 * 60 * 60 * 1000;
