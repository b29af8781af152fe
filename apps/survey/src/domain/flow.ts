/** A flow as the flow service gives it (feedback.flow.v1.Flow): the survey's questions. */
export type LocalizedText = Record<string, string>;

interface FlowOption {
  id: string;
  key: string;
  body: LocalizedText;
}

export interface FlowQuestion {
  id: string;
  key: string;
  body: LocalizedText;
  style: string;
  options: FlowOption[];
}

export interface Flow {
  id: string;
  accountId: string;
  name: string;
  questions: FlowQuestion[];
  /** ISO 8601, as the flow service sends it. */
  createdAt: string;
}
