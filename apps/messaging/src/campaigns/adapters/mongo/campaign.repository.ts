import type { Page, PageQuery } from '@feedback/kit-core';
import { keysetPage } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { CampaignRepository } from '../../ports.js';
import type { SendWindow } from '../../../shared/domain/send-window.js';
import type { CampaignReminder, SmsCampaign } from '../../../shared/domain/sharing.js';

interface CampaignDoc {
  _id: string;
  account_id: string;
  name: string;
  node_id: string;
  flow_id: string;
  channel_id: string;
  message_template: string;
  created_at: Date;
  /** Absent on campaigns made before delivery rules existed: none, none, false. */
  send_window?: SendWindow | null;
  reminders?: { after: string; after_ms: number; message_template: string | null }[];
  transliterate?: boolean;
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
      ...rulesDoc(c),
    });
  }

  async update(accountId: string, id: string, changes: Partial<Pick<SmsCampaign, 'sendWindow' | 'reminders' | 'transliterate'>>) {
    const d = await this.docs.findOneAndUpdate(
      { _id: id, account_id: accountId },
      { $set: rulesDoc(changes) },
      { returnDocument: 'after' },
    );
    return d ? toCampaign(d) : null;
  }

  async findById(accountId: string, id: string): Promise<SmsCampaign | null> {
    const d = await this.docs.findOne({ _id: id, account_id: accountId });
    return d ? toCampaign(d) : null;
  }

  /** Index account_created_id. */
  async page(accountId: string, page: PageQuery): Promise<Page<SmsCampaign>> {
    const { items, nextPageToken } = await keysetPage(this.docs, page, {
      filter: { account_id: accountId },
      order: { date: 'created_at' },
    });
    return { items: items.map(toCampaign), nextPageToken };
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
  sendWindow: d.send_window ?? null,
  reminders: (d.reminders ?? []).map((r) => ({ after: r.after, afterMs: r.after_ms, messageTemplate: r.message_template })),
  transliterate: d.transliterate ?? false,
});

/** The delivery rules given, as stored (absent ones left out, so an update keeps them). */
function rulesDoc(c: Partial<Pick<SmsCampaign, 'sendWindow' | 'reminders' | 'transliterate'>>): Partial<CampaignDoc> {
  const doc: Partial<CampaignDoc> = {};
  if (c.sendWindow !== undefined) doc.send_window = c.sendWindow;
  if (c.reminders !== undefined) doc.reminders = c.reminders.map(reminderDoc);
  if (c.transliterate !== undefined) doc.transliterate = c.transliterate;
  return doc;
}

const reminderDoc = (r: CampaignReminder) => ({ after: r.after, after_ms: r.afterMs, message_template: r.messageTemplate });
