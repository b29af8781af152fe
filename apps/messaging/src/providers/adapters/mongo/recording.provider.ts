import { systemClock, type Clock, type PageQuery } from '@feedback/kit-core';
import { insertManyOnce, insertOnce, keysetPage } from '@feedback/kit-stores';
import type { Collection, Db, Filter } from 'mongodb';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../../ports.js';
import type { RecordedMessage, RecordedMessagePage, RecordedMessages } from '../../../status/ports.js';
import type { SmsEncoding } from '../../../shared/domain/sms-encoding.js';

interface RecordedDoc {
  /** Our message id: a repeated hand-over of the same message is recorded once. */
  _id: string;
  account_id: string;
  sharing_id: string;
  phone: string;
  text: string;
  status: 'sent';
  created_at: Date;
  /** Absent on messages recorded before the cost was kept. */
  encoding?: SmsEncoding;
  segments?: number;
}

/**
 * The default provider: sends nothing, records what it was handed, so a deployment without an
 * SMS contract (and every test) can see the messages (GET /admin/v1/accounts/{id}/sms_messages).
 *
 * Outside the code it keeps its first name, "outbox": `SMS_PROVIDER=outbox` selects it (infra,
 * the Helm chart, compose, deployments), its name is the metric label `provider="outbox"` and
 * is stored on every message record it took (`sms_messages.provider`, which decides who may
 * resume a claim), and its records live in the `sms_outbox` collection. Renaming any of these
 * would break configurations, dashboards or stored data.
 */
export class MongoRecordingProvider implements SmsProvider, RecordedMessages {
  readonly name = 'outbox';
  /** Keyed by message id (insertOnce): handing the same message over again records nothing new. */
  readonly idempotent = true;
  private readonly docs: Collection<RecordedDoc>;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
    /** SMS_TURKISH_SHIFT_TABLE: it records messages as a provider with that table would send them. */
    readonly turkishShiftTable = false,
  ) {
    this.docs = db.collection<RecordedDoc>('sms_outbox');
  }

  async send(sms: OutgoingSms): Promise<ProviderResult> {
    await insertOnce<RecordedDoc>(this.docs, this.record(sms));
    return { outcome: 'accepted', providerMessageId: sms.messageId };
  }

  /** One unordered insert for the lot; a message recorded before stays as it was. */
  async sendMany(sms: OutgoingSms[]): Promise<ProviderResult[]> {
    await insertManyOnce<RecordedDoc>(
      this.docs,
      sms.map((m) => this.record(m)),
    );
    return sms.map((m) => ({ outcome: 'accepted', providerMessageId: m.messageId }));
  }

  private record(sms: OutgoingSms): RecordedDoc {
    return {
      _id: sms.messageId,
      account_id: sms.accountId,
      sharing_id: sms.sharingId,
      phone: sms.to,
      text: sms.text,
      status: 'sent',
      created_at: this.clock.now(),
      ...(sms.encoding && sms.segments !== undefined && { encoding: sms.encoding, segments: sms.segments }),
    };
  }

  /** Index account_created, or account_phone_created with a phone. */
  async list(q: { accountId: string; phone?: string; page: PageQuery }): Promise<RecordedMessagePage> {
    const filter: Filter<RecordedDoc> = { account_id: q.accountId };
    if (q.phone) filter.phone = q.phone;
    const { items, nextPageToken } = await keysetPage(this.docs, q.page, { filter, order: { date: 'created_at' } });
    return { items: items.map(toEntry), nextPageToken };
  }
}

function toEntry(d: RecordedDoc): RecordedMessage {
  return {
    messageId: d._id,
    accountId: d.account_id,
    sharingId: d.sharing_id,
    phone: d.phone,
    text: d.text,
    status: d.status,
    createdAt: d.created_at,
    ...(d.encoding && d.segments !== undefined && { encoding: d.encoding, segments: d.segments }),
  };
}
