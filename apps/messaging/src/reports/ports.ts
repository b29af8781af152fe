/** The first click of a message's short link (its code), and when. */
export interface ClickFact {
  code: string;
  at: Date;
}

/** The first answer through a message's link: its first message's record, the account, when, and the NPS score given. */
export interface AnswerFact {
  messageId: string;
  accountId: string;
  at: Date;
  nps?: number;
}

/** The clicked and answered facts on the message records, each once (adapters/mongo/fact.repository.ts). */
export interface FactRecorder {
  recordClicks(facts: ClickFact[]): Promise<number>;
  recordAnswers(facts: AnswerFact[]): Promise<number>;
}

/** A flow's NPS question (its first question of style `nps`), or null when it has none. */
export interface FlowQuestions {
  npsQuestionOf(accountId: string, flowId: string): Promise<string | null>;
}

export interface FactDeps {
  facts: FactRecorder;
  flows: FlowQuestions;
}
