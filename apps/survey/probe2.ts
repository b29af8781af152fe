import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { surveyIndexes } from './src/adapters/mongo/indexes.js';

const N = 20000;
const mongo = await connectMongo({ url: 'mongodb://127.0.0.1:27017', dbName: `survey_probe2`, logger: createLogger('p', 'silent') });
const db = mongo.db;
if ((await db.collection('customers').estimatedDocumentCount()) < N) {
  await db.dropDatabase();
  await ensureIndexes(db, surveyIndexes);
  const now = new Date();
  for (let b = 0; b < N; b += 5000) {
    const cs = [], ls = [];
    for (let i = b; i < Math.min(N, b + 5000); i++) {
      const id = `c${i}`;
      cs.push({ _id: id, account_id: 'acc', external_id: `e${i}`, email: `u${i}@x.io`, email_lower: `u${i}@x.io`, phone: `90532${String(i).padStart(7, '0')}`, schema: { TCKN: String(i) }, attributes: {}, created_at: now, updated_at: now });
      for (const ch of ['ch1', 'ch2']) ls.push({ _id: randomUUID(), account_id: 'acc', channel_id: ch, customer_id: id, node_id: 'n1', flow_id: 'f', node_name: 'N', flow_name: 'F', channel_name: ch, token: randomUUID(), activation: 1, activated_at: now, answered_at: null, expires_at: new Date(now.getTime() + 86400000), built_in_responses: {}, created_at: now });
    }
    await db.collection('customers').insertMany(cs as never[]);
    await db.collection('links').insertMany(ls as never[]);
  }
}
const time = async (label: string, f: () => Promise<unknown>) => { const s = performance.now(); await f(); console.log(label, (performance.now() - s).toFixed(1), 'ms'); };
const c = db.collection('customers'), l = db.collection('links');
await time('ext hint', () => c.findOne({ account_id: 'acc', external_id: 'e123' }, { hint: 'account_external_id' }));
await time('email hint', () => c.findOne({ account_id: 'acc', email_lower: 'u123@x.io' }, { hint: 'account_email' }));
await time('phone hint', () => c.findOne({ account_id: 'acc', phone: '905320000123' }, { hint: 'account_phone' }));
await time('links hint', () => l.find({ account_id: 'acc', customer_id: 'c123', node_id: 'n1', answered_at: null, expires_at: { $gt: new Date() } }, { hint: 'account_customer_node' }).limit(500).toArray());
await time('links nohint', () => l.find({ account_id: 'acc', customer_id: 'c123', node_id: 'n1' }).toArray());
const ex = await l.find({ account_id: 'acc', customer_id: 'c123', node_id: 'n1', answered_at: null, expires_at: { $gt: new Date() } }, { hint: 'account_customer_node' }).limit(500).explain('executionStats');
console.log(JSON.stringify(ex.executionStats).slice(0, 400));
const ex2 = await c.find({ account_id: 'acc', external_id: 'e123' }, { hint: 'account_external_id' }).explain('executionStats');
console.log(JSON.stringify(ex2.executionStats).slice(0, 400));
await mongo.close();
