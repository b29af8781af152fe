import type { Collection, Db } from 'mongodb';
import type { Flow } from '../../domain/flow.js';
import type { FlowRepository } from '../../domain/ports.js';

interface FlowDoc {
  _id: string;
  account_id: string;
  name: string;
  questions: Flow['questions'];
  created_at: Date;
}

export class MongoFlowRepository implements FlowRepository {
  private readonly flows: Collection<FlowDoc>;

  constructor(db: Db) {
    this.flows = db.collection<FlowDoc>('flows');
  }

  async insert(flow: Flow): Promise<void> {
    await this.flows.insertOne({
      _id: flow.id,
      account_id: flow.accountId,
      name: flow.name,
      questions: flow.questions,
      created_at: flow.createdAt,
    });
  }

  async findById(accountId: string, flowId: string): Promise<Flow | null> {
    const doc = await this.flows.findOne({ _id: flowId, account_id: accountId });
    if (!doc) return null;
    return { id: doc._id, accountId: doc.account_id, name: doc.name, questions: doc.questions, createdAt: doc.created_at };
  }
}
