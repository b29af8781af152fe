import { isDuplicateKeyError } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { SharingRepository } from '../../domain/ports.js';
import type { Recipient, RejectedPhone, SmsSharing } from '../../domain/sharing.js';

interface SharingDoc {
  _id: string;
  account_id: string;
  campaign_id: string;
  created_at: Date;
  accepted: number;
  duplicates: number;
  rejected: RejectedPhone[];
}

interface RecipientDoc {
  /** `<sharing id>.<phone>`, like the message record it becomes. */
  _id: string;
  sharing_id: string;
  phone: string;
  input: string;
  attributes: Record<string, string>;
  built_in_responses: Record<string, string>;
}

/** Recipients go in batches of 1,000: the size that bulk-loads fastest on the local server (infra notes). */
const BATCH = 1_000;

export class MongoSharingRepository implements SharingRepository {
  private readonly sharings: Collection<SharingDoc>;
  private readonly recipients: Collection<RecipientDoc>;

  constructor(db: Db) {
    this.sharings = db.collection<SharingDoc>('sharings');
    this.recipients = db.collection<RecipientDoc>('sharing_recipients');
  }

  async insert(s: SmsSharing, recipients: Recipient[]): Promise<void> {
    // Recipients first: a sharing that can be read is complete.
    for (let i = 0; i < recipients.length; i += BATCH) {
      const docs = recipients.slice(i, i + BATCH).map((r) => ({
        _id: `${s.id}.${r.phone}`,
        sharing_id: s.id,
        phone: r.phone,
        input: r.input,
        attributes: r.attributes,
        built_in_responses: r.builtInResponses,
      }));
      try {
        await this.recipients.insertMany(docs, { ordered: false });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err; // a repeated insert after a timeout
      }
    }
    try {
      await this.sharings.insertOne({
        _id: s.id,
        account_id: s.accountId,
        campaign_id: s.campaignId,
        created_at: s.createdAt,
        accepted: s.accepted,
        duplicates: s.duplicates,
        rejected: s.rejected,
      });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async findById(accountId: string, id: string): Promise<SmsSharing | null> {
    const d = await this.sharings.findOne({ _id: id, account_id: accountId });
    return d
      ? {
          id: d._id,
          accountId: d.account_id,
          campaignId: d.campaign_id,
          createdAt: d.created_at,
          accepted: d.accepted,
          duplicates: d.duplicates,
          rejected: d.rejected,
        }
      : null;
  }

  async listRecipientPhones(sharingId: string): Promise<string[]> {
    const docs = await this.recipients
      .find({ sharing_id: sharingId }, { projection: { phone: 1 } })
      .sort({ phone: 1 })
      .toArray();
    return docs.map((d) => d.phone);
  }
}
