import { randomInt } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { MongoClient, Timestamp } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

/** A valid TCKN (its two check digits right) that no other test uses. */
function uniqueTckn(): string {
  const d = [randomInt(1, 10), ...Array.from({ length: 8 }, () => randomInt(0, 10))];
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  d.push((((odd * 7 - even) % 10) + 10) % 10);
  d.push(d.reduce((a, b) => a + b, 0) % 10);
  return d.join('');
}

/**
 * Where a value appears in any document of any collection of any database of the stack's server.
 * The oplog (local.oplog.rs, every write the server made) is read from `since` on: the values are
 * new, so no earlier entry can hold them, and the whole oplog of a test run is large.
 */
async function findEverywhere(mongoUrl: string, values: string[], since: Date): Promise<string[]> {
  const client = await MongoClient.connect(mongoUrl);
  const hits: string[] = [];
  try {
    const { databases } = await client.db().admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) {
      const db = client.db(name);
      const collections = await db
        .listCollections({}, { nameOnly: true })
        .toArray()
        .catch(() => []);
      for (const { name: collection } of collections) {
        if (collection.startsWith('system.')) continue;
        const oplog = name === 'local' && collection === 'oplog.rs';
        const filter = oplog ? { ts: { $gte: new Timestamp({ t: Math.floor(since.getTime() / 1000), i: 0 }) } } : {};
        for await (const doc of db.collection(collection).find(filter)) {
          // JSON of the whole document: a value inside a longer string (a text, a URL) counts too.
          const text = JSON.stringify(doc);
          for (const v of values) if (text.includes(v)) hits.push(`${name}.${collection} ${String(doc._id)}: ${v}`);
        }
      }
    }
  } finally {
    await client.close();
  }
  return hits;
}

const { request, admin, newCampaign, share, outbox } = smsClient();

describe('a TCKN given to the service is never stored in clear', () => {
  it('through an SMS sharing, a scheduled one, a personal link and the active survey query, no database holds it', async () => {
    const stack = readStackFile();
    const started = new Date();
    const [tckn, scheduledTckn] = [uniqueTckn(), uniqueTckn()];
    const [phone, laterPhone] = [randomPhone(), randomPhone()];
    const { account, nodeId, flowId, campaignId } = await newCampaign('Merhaba {{name}}: {{link}}');

    const sent = await share(account.apiToken, campaignId, {
      phone_numbers: [phone],
      custom_attributes: { [phone]: { name: 'Ayşe', tckn } },
    });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ accepted: 1, rejected: 0 });
    // A sharing due tomorrow keeps its recipients' TCKN until then: sealed, not in clear.
    const sendAt = new Date(Date.now() + 86_400_000).toISOString().replace('Z', '+00:00');
    const later = await share(account.apiToken, campaignId, {
      phone_numbers: [laterPhone],
      custom_attributes: { [laterPhone]: { name: 'Can', TCKN: scheduledTckn } },
      send_at: sendAt,
    });
    expect(later.status).toBe(200);

    // A personal link for the same customer, its TCKN in the schema.
    const channel = await admin('POST', `/accounts/${account.id}/channels`, {
      name: 'web',
      node_id: nodeId,
      flow_id: flowId,
      link_ttl_days: 7,
    });
    const link = await request('POST', `/external/v1/link_channels/${channel.id}/links`, {
      headers: { authorization: `Bearer ${account.integrationToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { phone_number: phone, external_id: `crm-${randomInt(1e9)}`, schema: { TCKN: tckn } } }),
    });
    expect(link.status).toBeLessThan(300);

    await waitFor(`the SMS to ${phone}`, async () => ((await outbox(account.id, phone)).data.length === 1 ? true : undefined));
    const query = (given: string) =>
      request('POST', `/external/v1/nodes/${nodeId}/active_surveys`, {
        headers: { authorization: `Bearer ${account.integrationToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ customer: { phone_number: phone, schema: { TCKN: given } } }),
      });
    const found = await query(tckn);
    expect(found.status).toBe(200);
    expect(found.json.count).toBe(2);
    expect((await query(scheduledTckn)).json).toEqual({ count: 0, surveys: [] });

    // The dispatch writes its records after the SMS is handed over: give them a moment.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await findEverywhere(stack.mongo_url, [tckn, scheduledTckn], started)).toEqual([]);
  }, 60_000);
});
