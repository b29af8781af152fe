import { randomBytes, randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, SecretKeyMissingError } from '../src/providers/adapters/crypto/secret-box.js';
import { parseAccountProviderConfig } from '../src/providers/adapters/http/account-provider.config.js';
import { MongoAccountProviderRepository } from '../src/providers/adapters/mongo/account-provider.repository.js';
import { dropTestDb, openTestDb } from './stack.js';

/** The encrypted account providers on the stack's MongoDB. */
describe('account SMS providers at rest', () => {
  let mongo: MongoHandle;
  const key = randomBytes(32);
  let repo: MongoAccountProviderRepository;
  const raw = (id: string) => mongo.db.collection('account_sms_providers').findOne({ _id: id as never });

  // Every credential a provider may carry, each a value that cannot occur by chance.
  const secrets = {
    password: `pw-${randomBytes(8).toString('hex')}`,
    apiKey: `key-${randomBytes(8).toString('hex')}`,
    bearer: `tok-${randomBytes(8).toString('hex')}`,
    basic: `usr-${randomBytes(8).toString('hex')}`,
  };
  const settings = parseAccountProviderConfig(
    JSON.stringify({
      url: `https://${secrets.basic}:x@sms.example.com/send?apikey=${secrets.apiKey}`,
      sender: 'ACME',
      headers: { authorization: `Bearer ${secrets.bearer}` },
      body: JSON.stringify({ user: 'acme', password: secrets.password, to: '{to}', text: '{text}', from: '{sender}' }),
    }),
  );

  beforeAll(async () => {
    mongo = await openTestDb();
    repo = new MongoAccountProviderRepository(mongo.db, new SecretBox(key));
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  it('stores no credential in clear, and reads the settings back whole', async () => {
    const accountId = randomUUID();
    const at = new Date('2026-11-25T10:00:00.000Z');
    const stored = await repo.put({ accountId, settings, at });
    expect(stored).toEqual({ accountId, settings, createdAt: at, updatedAt: at });

    const doc = await raw(accountId);
    expect(Object.keys(doc!).sort()).toEqual(['_id', 'ciphertext', 'created_at', 'iv', 'key_id', 'tag', 'updated_at']);
    // The document as the database holds it, every binary field as bytes and as base64.
    const asStored = JSON.stringify(doc) + Buffer.from(doc!.ciphertext.buffer).toString('latin1');
    for (const s of [...Object.values(secrets), 'sms.example.com', 'ACME', '{to}']) expect(asStored).not.toContain(s);

    expect(await repo.find(accountId)).toEqual({ accountId, settings, createdAt: at, updatedAt: at });
  });

  it('a replacement keeps the first creation time; delete answers whether there was one', async () => {
    const accountId = randomUUID();
    await repo.put({ accountId, settings, at: new Date('2026-11-25T10:00:00Z') });
    const second = await repo.put({ accountId, settings: { ...settings, sender: 'OTHER' }, at: new Date('2026-11-25T11:00:00Z') });
    expect([second.createdAt, second.updatedAt]).toEqual([new Date('2026-11-25T10:00:00Z'), new Date('2026-11-25T11:00:00Z')]);
    expect((await repo.find(accountId))?.settings.sender).toBe('OTHER');
    expect(await repo.delete(accountId)).toBe(true);
    expect(await repo.find(accountId)).toBeNull();
    expect(await repo.delete(accountId)).toBe(false);
  });

  it('a wrong key cannot read it, nor can another account', async () => {
    const accountId = randomUUID();
    await repo.put({ accountId, settings, at: new Date() });
    const wrong = new MongoAccountProviderRepository(mongo.db, new SecretBox(randomBytes(32)));
    await expect(wrong.find(accountId)).rejects.toBeInstanceOf(SecretKeyMissingError);
    // An operator's to fix (the key was dropped too early): UNAVAILABLE naming the key id, not a bug.
    await expect(wrong.find(accountId)).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/^Sealed with key k[0-9a-f]{16}, /),
    });

    // The same ciphertext under another account's id: the account id is bound to it.
    const doc = await raw(accountId);
    const other = randomUUID();
    await mongo.db.collection('account_sms_providers').insertOne({ ...doc!, _id: other as never });
    await expect(repo.find(other)).rejects.toThrow(/authenticate/);
  });

  it('after a key rotation the previous key still reads it, and the read seals it with the new one', async () => {
    const accountId = randomUUID();
    await repo.put({ accountId, settings, at: new Date() });
    const newKey = randomBytes(32);
    const box = new SecretBox(newKey, [key]);
    const rotated = new MongoAccountProviderRepository(mongo.db, box);
    expect((await rotated.find(accountId))?.settings).toEqual(settings);
    expect((await raw(accountId))?.key_id).toBe(box.currentKeyId);
    // From now on the new key alone reads it, and the old one no longer does.
    expect((await new MongoAccountProviderRepository(mongo.db, new SecretBox(newKey)).find(accountId))?.settings).toEqual(settings);
    await expect(repo.find(accountId)).rejects.toBeInstanceOf(SecretKeyMissingError);
  });

  it('without a key the put fails UNAVAILABLE and stores nothing', async () => {
    const accountId = randomUUID();
    const keyless = new MongoAccountProviderRepository(mongo.db, new SecretBox(undefined));
    await expect(keyless.put({ accountId, settings, at: new Date() })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await raw(accountId)).toBeNull();
  });
});
