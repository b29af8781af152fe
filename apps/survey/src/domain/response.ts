import type { SendContext } from './link.js';

/** One answer as given (and stored): option keys for choices, text or number otherwise. */
export interface AnswerValue {
  questionKey: string;
  optionKeys: string[];
  text?: string;
  number?: number;
}

/** The answers of one activation of one link. */
export interface SurveyResponse {
  id: string;
  accountId: string;
  flowId: string;
  channelId: string;
  nodeId: string;
  customerId: string;
  linkId: string;
  activation: number;
  answers: AnswerValue[];
  builtInResponses: Record<string, string>;
  answeredAt: Date;
  /** The answered activation's (link.ts); absent on responses stored before links kept it. */
  context?: SendContext;
}

/** The customer's identifiers shown with a response (as stored now; a customer may have none of some). */
export interface ResponseCustomer {
  externalId?: string;
  email?: string;
  phone?: string;
}

/** A response as the responses API lists it. */
export interface ListedResponse {
  response: SurveyResponse;
  customer?: ResponseCustomer;
}
