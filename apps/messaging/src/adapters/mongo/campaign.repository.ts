import type { Collection, Db } from 'mongodb';
import type { CampaignRepository } from '../../domain/ports.js';
import type { SmsCampaign } from '../../domain/sharing.js';

interface CampaignDoc {
  _id: string;
  account_id: string;
  name: string;
  node_id: string;
  flow_id: string;
  channel_id: string;
  message_template: string;
  created_at: Date;
}

export class MongoCampaignRepository implements CampaignRepository {
  private readonly docs: Collection<CampaignDoc>;

  constructor(db: Db) {
    this.docs = db.collection<CampaignDoc>('campaigns');
  }

  async insert(c: SmsCampaign): Promise<void> {
    await this.docs.insertOne({
      _id: c.id,
      account_id: c.accountId,
      name: c.name,
      node_id: c.nodeId,
      flow_id: c.flowId,
      channel_id: c.channelId,
      message_template: c.messageTemplate,
      created_at: c.createdAt,
    });
  }

  async findById(accountId: string, id: string): Promise<SmsCampaign | null> {
    const d = await this.docs.findOne({ _id: id, account_id: accountId });
    return d ? toCampaign(d) : null;
  }

  async listByAccount(accountId: string, limit: number): Promise<SmsCampaign[]> {
    return (await this.docs.find({ account_id: accountId }).sort({ created_at: -1 }).limit(limit).toArray()).map(toCampaign);
  }
}

const toCampaign = (d: CampaignDoc): SmsCampaign => ({
  id: d._id,
  accountId: d.account_id,
  name: d.name,
  nodeId: d.node_id,
  flowId: d.flow_id,
  channelId: d.channel_id,
  messageTemplate: d.message_template,
  createdAt: d.created_at,
});
