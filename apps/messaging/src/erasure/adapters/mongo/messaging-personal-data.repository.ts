import type { Db } from 'mongodb';
import type { MessagingPersonalData } from '../../ports.js';

interface OptOutDoc {
  _id: string;
  account_id: string;
  phone: string;
  source: string;
  created_at: Date;
}

/**
 * Messaging's writes for a data erasure. Messages and the recording provider's records by
 * (phone, account_id) and (account_id, phone) (indexes.ts), opt-outs by `_id`; the sharings'
 * rejected lists have no phone index and are read through the account's (erasures are rare).
 */
export class MongoMessagingPersonalData implements MessagingPersonalData {
  constructor(private readonly db: Db) {}

  async deleteMessagesTo(accountId: string, phones: string[]) {
    const messages = this.db.collection('sms_messages');
    const filter = { phone: { $in: phones }, account_id: accountId };
    const sharingIds = (await messages.distinct('sharing_id', filter)) as string[];
    const { deletedCount } = await messages.deleteMany(filter);
    return { deleted: deletedCount, sharingIds };
  }

  async forgetRecipients(accountId: string, sharingIds: string[], phones: string[]): Promise<void> {
    if (sharingIds.length > 0) {
      const chunks = this.db.collection('sharing_recipients');
      const pull = { $pull: { recipients: { phone: { $in: phones } } } } as never;
      await chunks.updateMany({ sharing_id: { $in: sharingIds }, 'recipients.phone': { $in: phones } }, pull);
      // The earlier shape: one recipient per document.
      await chunks.deleteMany({ sharing_id: { $in: sharingIds }, phone: { $in: phones } });
    }
    // A rejected entry holds the phone as given or normalized (opted_out, duplicate).
    const forms = phones.flatMap((p) => [p, `+${p}`]);
    await this.db
      .collection('sharings')
      .updateMany({ account_id: accountId, 'rejected.phone': { $in: forms } }, { $pull: { rejected: { phone: { $in: forms } } } } as never);
  }

  async deleteHandedOver(accountId: string, phones: string[]): Promise<number> {
    return (await this.db.collection('sms_outbox').deleteMany({ account_id: accountId, phone: { $in: phones } })).deletedCount;
  }

  async hashOptOuts(accountId: string, phones: string[], hashOf: (phone: string) => string): Promise<number> {
    const docs = this.db.collection<OptOutDoc>('sms_opt_outs');
    let kept = 0;
    for (const phone of phones) {
      const hash = hashOf(phone);
      const clear = await docs.findOne({ _id: `${accountId}.${phone}` });
      if (clear) {
        // The hashed entry first (its own `_id`, so a second run finds it), then the clear one goes.
        // Its date stays: other processes' snapshots keep the clear phone until they reload, which
        // suppresses the same phone, and then load the hash.
        await docs.updateOne(
          { _id: `${accountId}.${hash}` },
          { $setOnInsert: { account_id: accountId, phone: hash, source: clear.source, created_at: clear.created_at } },
          { upsert: true },
        );
        await docs.deleteOne({ _id: clear._id });
      }
      if (await docs.findOne({ _id: `${accountId}.${hash}` }, { projection: { _id: 1 } })) kept++;
    }
    return kept;
  }
}
