import { upsertAndRead } from '@feedback/kit-stores';
import { Binary, type Collection, type Db } from 'mongodb';
import type { AccountProvider, AccountProviderSettings } from '../../domain/account-provider.js';
import type { AccountProviderRepository } from '../../ports.js';
import type { Sealed, SecretBox } from '../crypto/secret-box.js';

interface AccountProviderDoc {
  /** The account id: one provider per account. */
  _id: string;
  /** The settings JSON, AES-256-GCM (secret-box.ts); nothing of them is stored in clear. */
  key_id: string;
  iv: Binary;
  ciphertext: Binary;
  tag: Binary;
  created_at: Date;
  updated_at: Date;
}

/**
 * Account SMS providers (collection `account_sms_providers`). The whole settings document is
 * sealed, not only the fields that look like credentials: which values are secret differs per
 * provider (docs: account-provider.ts's masking rule). The account id is the associated data.
 */
export class MongoAccountProviderRepository implements AccountProviderRepository {
  private readonly docs: Collection<AccountProviderDoc>;

  constructor(
    db: Db,
    private readonly box: SecretBox,
  ) {
    this.docs = db.collection<AccountProviderDoc>('account_sms_providers');
  }

  async put(p: { accountId: string; settings: AccountProviderSettings; at: Date }): Promise<AccountProvider> {
    const sealed = this.box.seal(JSON.stringify(p.settings), contextOf(p.accountId));
    const doc = await upsertAndRead(
      this.docs,
      { _id: p.accountId },
      { $set: { ...sealedFields(sealed), updated_at: p.at }, $setOnInsert: { created_at: p.at } },
    );
    return { accountId: p.accountId, settings: p.settings, createdAt: doc.created_at, updatedAt: doc.updated_at };
  }

  /** Throws when the document cannot be opened (its key is not configured, or it was altered). */
  async find(accountId: string): Promise<AccountProvider | null> {
    const doc = await this.docs.findOne({ _id: accountId });
    if (!doc) return null;
    const sealed: Sealed = { keyId: doc.key_id, iv: bytes(doc.iv), ciphertext: bytes(doc.ciphertext), tag: bytes(doc.tag) };
    const json = this.box.open(sealed, contextOf(accountId));
    if (this.box.currentKeyId && doc.key_id !== this.box.currentKeyId) await this.reseal(doc, json);
    return { accountId, settings: JSON.parse(json) as AccountProviderSettings, createdAt: doc.created_at, updatedAt: doc.updated_at };
  }

  async delete(accountId: string): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: accountId })).deletedCount === 1;
  }

  /**
   * After a key rotation, a document sealed with a previous key is sealed again with the current
   * one when it is read, unless it was replaced meanwhile; once none has the old key id, the
   * previous key may be dropped from the configuration.
   */
  private async reseal(doc: AccountProviderDoc, json: string): Promise<void> {
    const sealed = this.box.seal(json, contextOf(doc._id));
    await this.docs.updateOne({ _id: doc._id, key_id: doc.key_id, iv: doc.iv }, { $set: sealedFields(sealed) });
  }
}

const contextOf = (accountId: string) => `account_sms_providers:${accountId}`;

const sealedFields = (s: Sealed) => ({
  key_id: s.keyId,
  iv: new Binary(s.iv),
  ciphertext: new Binary(s.ciphertext),
  tag: new Binary(s.tag),
});

const bytes = (b: Binary) => Buffer.from(b.buffer);
