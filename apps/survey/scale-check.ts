import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core';
import { connectMongo, ensureIndexes } from '@feedback/kit-stores';
import { surveyIndexes } from './src/adapters/mongo/indexes.js';
import { MongoCustomerRepository } from './src/adapters/mongo/customer.repository.js';
import { MongoLinkRepository } from './src/adapters/mongo/link.repository.js';
import { listActiveSurveys } from './src/domain/active-surveys.use-case.js';

const N = Number(process.env.N ?? 20000);
const logger = createLogger('scale', 'silent');
const mongo = await connectMongo({ url: 'mongodb://127.0.0.1:27017', dbName: `survey_scale_${Date.now()}`, logger });
try {
  await ensureIndexes(mongo.db, surveyIndexes);
  const now = new Date();
  const t = performance.now();
  for (let b = 0; b < N; b += 5000) {
    const cs = [], ls = [];
    for (let i = b; i < Math.min(N, b + 5000); i++) {
      const id = `c${i}`;
      cs.push({ _id: id, account_id: 'acc', external_id: `e${i}`, email: `u${i}@x.io`, email_lower: `u${i}@x.io`, phone: `90532${String(i).padStart(7, '0')}`, schema: { TCKN: String(i) }, attributes: {}, created_at: now, updated_at: now });
      for (const ch of ['ch1', 'ch2']) ls.push({ _id: randomUUID(), account_id: 'acc', channel_id: ch, customer_id: id, node_id: 'n1', flow_id: 'f', node_name: 'N', flow_name: 'F', channel_name: ch, token: randomUUID(), activation: 1, activated_at: now, answered_at: null, expires_at: new Date(now.getTime() + 86400000), built_in_responses: {}, created_at: now });
    }
    await mongo.db.collection('customers').insertMany(cs as never[]);
    await mongo.db.collection('links').insertMany(ls as never[]);
  }
  console.log(`loaded ${N} customers, ${2 * N} links in ${Math.round(performance.now() - t)} ms`);
  const deps = { customers: new MongoCustomerRepository(mongo.db), links: new MongoLinkRepository(mongo.db), clock: { now: () => new Date() }, config: { publicBaseUrl: 'http://x', defaultPhoneRegion: 'TR', defaultLinkTtlDays: 7 } };
  const times: number[] = [];
  for (let k = 0; k < 300; k++) {
    const i = Math.floor(Math.random() * N);
    const s = performance.now();
    const r = await listActiveSurveys(deps, { accountId: 'acc', nodeId: 'n1', phoneNumber: `+90532${String(i).padStart(7, '0')}`, email: `u${i}@x.io`, externalId: `e${i}`, tckn: String(i), responseChannelId: '' });
    times.push(performance.now() - s);
    if (r.length !== 2) throw new Error(`expected 2 surveys for ${i}, got ${r.length}`);
  }
  times.sort((a, b) => a - b);
  console.log(`3-identifier active query: p50 ${times[150]!.toFixed(1)} ms, p99 ${times[297]!.toFixed(1)} ms`);
} catch (err) {
  console.log('FAILED', err);
} finally {
  await mongo.db.dropDatabase();
  await mongo.close();
}
