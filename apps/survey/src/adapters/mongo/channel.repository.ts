import type { Collection, Db } from 'mongodb';
import type { Channel, ChannelKind } from '../../domain/channel.js';
import type { ChannelRepository } from '../../domain/ports.js';

interface ChannelDoc {
  _id: string;
  account_id: string;
  name: string;
  node_id: string;
  node_name: string;
  flow_id: string;
  flow_name: string;
  link_ttl_days: number;
  kind: ChannelKind;
  created_at: Date;
}

const toChannel = (d: ChannelDoc): Channel => ({
  id: d._id,
  accountId: d.account_id,
  name: d.name,
  nodeId: d.node_id,
  nodeName: d.node_name,
  flowId: d.flow_id,
  flowName: d.flow_name,
  linkTtlDays: d.link_ttl_days,
  kind: d.kind,
  createdAt: d.created_at,
});

export class MongoChannelRepository implements ChannelRepository {
  private readonly channels: Collection<ChannelDoc>;

  constructor(db: Db) {
    this.channels = db.collection<ChannelDoc>('channels');
  }

  async insert(c: Channel): Promise<void> {
    await this.channels.insertOne({
      _id: c.id,
      account_id: c.accountId,
      name: c.name,
      node_id: c.nodeId,
      node_name: c.nodeName,
      flow_id: c.flowId,
      flow_name: c.flowName,
      link_ttl_days: c.linkTtlDays,
      kind: c.kind,
      created_at: c.createdAt,
    });
  }

  async findById(accountId: string, id: string): Promise<Channel | null> {
    const doc = await this.channels.findOne({ _id: id, account_id: accountId });
    return doc ? toChannel(doc) : null;
  }

  async list(accountId: string): Promise<Channel[]> {
    const docs = await this.channels.find({ account_id: accountId }).sort({ created_at: -1 }).limit(1000).toArray();
    return docs.map(toChannel);
  }
}
