import type { Collection, Db } from 'mongodb';
import type { Node } from '../../domain/account.js';
import type { NodeRepository } from '../../domain/ports.js';

interface NodeDoc {
  _id: string;
  account_id: string;
  name: string;
  created_at: Date;
}

export class MongoNodeRepository implements NodeRepository {
  private readonly col: Collection<NodeDoc>;
  constructor(db: Db) {
    this.col = db.collection<NodeDoc>('nodes');
  }

  async insert(n: Node): Promise<void> {
    await this.col.insertOne({ _id: n.id, account_id: n.accountId, name: n.name, created_at: n.createdAt });
  }

  async findById(accountId: string, nodeId: string): Promise<Node | null> {
    // `_id` first: both servers look the one document up by its key (no hint: docs/decisions.md "Local MongoDB server").
    const d = await this.col.findOne({ _id: nodeId, account_id: accountId });
    return d ? { id: d._id, accountId: d.account_id, name: d.name, createdAt: d.created_at } : null;
  }
}
