import { randomBytes } from 'node:crypto';
import { nameBasedUuid } from '@feedback/kit-core';
import { readStackFile } from '@feedback/dev-stack';
import { ensureIndexes, isDuplicateKeyError } from '@feedback/kit-stores';
import { MongoClient, type Collection, type Db } from 'mongodb';
// The survey service's own index definitions, so the bench loads into exactly what it queries.
import { retiredSurveyIndexes, surveyIndexes } from '../../apps/survey/src/adapters/mongo/indexes.js';
import { alternate, report } from './compare.js';
import { percentile, runLoop } from './driver-loop.js';
import { runLoad } from './load.js';
import { runOpenLoop } from './open-loop.js';
import { cpuPerRequest, formatCpuPerRequest } from './process-stats.js';

const CUSTOMERS = Number(process.env.BENCH_SURVEY_CUSTOMERS ?? 1_000_000);
/** Two link channels on the one node: every customer has one link of each, 2,000,000 links in all. */
const CHANNELS = 2;
/** Customers per insertMany (their links go in a second insertMany of CHANNELS times as many). */
const BATCH = 5_000;
/** The survey service's database in the running stack (infra/apps.sh: MONGO_DB's default). */
const SURVEY_DB = process.env.BENCH_SURVEY_DB ?? 'survey';
const MARKER = 'bench_active_surveys';
const CONNECTIONS = 16;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Active links expire a year after loading (the longest channel TTL), so a loaded set stays usable. */
const TTL_DAYS = 365;
const MAX_LINKS = 500; // the survey adapter's limit
/** Seconds of the paced phase: both sides at half the API's measured rate, latency without the saturation queue. */
const PACED_SEC = Number(process.env.BENCH_SURVEY_PACED_SEC ?? 10);

type Kind = 'phone' | 'email' | 'external_id';
const KINDS: readonly Kind[] = ['phone', 'email', 'external_id'];

/** What the load made, in the survey database, so later runs reuse it. */
interface Marker {
  _id: 'dataset';
  state: 'loading' | 'complete';
  customers: number;
  links: number;
  account_id: string;
  integration_token: string;
  node_id: string;
  flow_id: string;
  channel_ids: string[];
  loaded_at: Date;
  /** Customers 0..loaded-1 and their links are in. */
  loaded: number;
  load_seconds?: number;
}

// Customer i, deterministic so a query can pick any of them without a list in memory.
const phoneOf = (i: number) => `90532${String(i).padStart(7, '0')}`;
const emailOf = (i: number) => `customer${i}@bench.example`;
const externalIdOf = (i: number) => `crm-${i}`;
/** Channel 0's link is active; channel 1's is answered (i % 4 = 0), expired (1) or active (2, 3). */
const expectedActive = (i: number) => (i % 4 < 2 ? 1 : 2);

/**
 * The active survey query (docs/api.md "Active surveys") at scale: 1,000,000 customers and 2,000,000 survey links
 * of one account, loaded straight into the survey service's database in the documents and
 * indexes its Mongo adapters use (account, node, flow, channels and token through the admin
 * API first, so the gateway knows them). Then, per identifier (phone, e-mail, external_id)
 * and with a random customer per request, `POST /external/v1/nodes/{id}/active_surveys`
 * through the gateway (token → node check → gRPC survey → customer and links lookups)
 * alternately with the same two lookups the survey service makes, made directly with the
 * driver. The load is kept (a marker document in the survey database) and reused by later
 * runs; `BENCH_SURVEY_RELOAD=1` loads anew, `BENCH_SURVEY_LOAD_ONLY=1` only loads,
 * `BENCH_SURVEY_LOAD_BUDGET_SEC=n` stops loading after n seconds and measures over what is in
 * (the next run goes on), `BENCH_SURVEY_PARTIAL=1` measures over what is in without loading.
 */
export async function activeSurveysBench(opts: { durationSec: number; rounds: number }) {
  const stack = readStackFile();
  if (!stack.base_url || !stack.admin_token) throw new Error('the stack file has no base_url/admin_token: is the gateway up?');
  const mongo = new MongoClient(stack.mongo_url, { maxPoolSize: CONNECTIONS });
  await mongo.connect();
  try {
    const db = mongo.db(SURVEY_DB);
    const set = await dataset(db, stack.base_url, stack.admin_token);
    if (process.env.BENCH_SURVEY_LOAD_ONLY === '1') return { load_seconds: set.load_seconds };
    const customers = db.collection('customers');
    const links = db.collection('links');
    const nodeId = set.node_id;
    const accountId = set.account_id;
    const population = set.state === 'complete' ? set.customers : set.loaded;
    if (population < 100) throw new Error(`only ${population} customers loaded`);
    const pick = () => Math.floor(Math.random() * population);

    // The survey service's queries (adapters/mongo/customer.repository.ts findBy, link.repository.ts findActive).
    const directLookup = async (kind: Kind, i: number) => {
      const filter =
        kind === 'phone'
          ? { account_id: accountId, phone: phoneOf(i) }
          : kind === 'email'
            ? { account_id: accountId, email_lower: emailOf(i) }
            : { account_id: accountId, external_id: externalIdOf(i) };
      const customer = await customers.findOne(filter);
      if (!customer) return [];
      const now = new Date();
      return (await links.find({ account_id: accountId, customer_id: customer._id, node_id: nodeId }).toArray())
        .filter((l) => l.answered_at === null && l.expires_at > now)
        .slice(0, MAX_LINKS);
    };
    const url = `${stack.base_url}/external/v1/nodes/${nodeId}/active_surveys`;
    const headers = { authorization: `Bearer ${set.integration_token}`, 'content-type': 'application/json' };
    const bodyOf = (kind: Kind, i: number) =>
      JSON.stringify({
        customer:
          kind === 'phone'
            ? { phone_number: `+${phoneOf(i)}` }
            : kind === 'email'
              ? { email: emailOf(i) }
              : { external_id: externalIdOf(i) },
      });

    // Both sides must find the same surveys before their speed means anything.
    for (const kind of KINDS) {
      for (let s = 0; s < 20; s++) {
        const i = pick();
        const res = await fetch(url, { method: 'POST', headers, body: bodyOf(kind, i) });
        const api = (await res.json()) as { count?: number };
        const direct = await directLookup(kind, i);
        if (res.status !== 200 || api.count !== expectedActive(i) || direct.length !== expectedActive(i)) {
          throw new Error(
            `customer ${i} by ${kind}: expected ${expectedActive(i)} active surveys, API ${res.status} ${JSON.stringify(api)}, direct ${direct.length}`,
          );
        }
      }
    }

    const results = [];
    for (const kind of KINDS) {
      const apiRun = (durationSec: number) =>
        runLoad({ url, method: 'POST', headers, nextBody: () => bodyOf(kind, pick()), connections: CONNECTIONS, durationSec });
      const directRun = (durationSec: number) =>
        runLoop({
          concurrency: CONNECTIONS,
          durationSec,
          op: async () => {
            const i = pick();
            const found = await directLookup(kind, i);
            if (found.length !== expectedActive(i)) throw new Error(`customer ${i}: ${found.length} active links`);
          },
        });
      const name = `active-surveys-by-${kind}`;
      const {
        baseline: b,
        subject: s,
        ratio,
      } = await alternate(
        name,
        { label: 'driver: customer + links (baseline)', run: directRun },
        { label: 'API → gateway → gRPC survey', run: apiRun },
        { rounds: opts.rounds, durationSec: opts.durationSec, warmupSec: 2 },
      );
      report(name, [b, s], ratio, {
        customers: population,
        links: population * CHANNELS,
        rounds: opts.rounds,
        durationSec: opts.durationSec,
        connections: CONNECTIONS,
      });
      // At saturation both sides' latency is mostly the queue in front of the one database
      // process; the latency a caller sees at a sustainable load is measured at half the API's rate.
      const rate = Math.max(1, Math.round(s.rps / 2));
      const pacedApi = await paced(rate, async () => {
        const res = await fetch(url, { method: 'POST', headers, body: bodyOf(kind, pick()) });
        await res.arrayBuffer();
        return res.status;
      });
      const pacedDirect = await paced(rate, async () => {
        const i = pick();
        return (await directLookup(kind, i)).length === expectedActive(i) ? 200 : 'wrong count';
      });
      console.log(
        `paced at ${rate} req/s (half the API's rate) for ${PACED_SEC} s: API p50 ${pacedApi.p50.toFixed(1)} ms, p99 ${pacedApi.p99.toFixed(1)} ms, ` +
          `errors ${pacedApi.errors}; direct p50 ${pacedDirect.p50.toFixed(1)} ms, p99 ${pacedDirect.p99.toFixed(1)} ms, errors ${pacedDirect.errors}`,
      );
      results.push({ kind, baseline: b, subject: s, ratio, paced: { rate, api: pacedApi, direct: pacedDirect } });
    }

    // Where the time goes: CPU per request of each process, one more run of each side (by phone).
    const benchCpu = process.cpuUsage();
    const direct = await cpuPerRequest(['mongo'], () =>
      runLoop({ concurrency: CONNECTIONS, durationSec: opts.durationSec, op: () => directLookup('phone', pick()) }),
    );
    const benchUsed = process.cpuUsage(benchCpu);
    const benchMs = (benchUsed.user + benchUsed.system) / 1000;
    const api = await cpuPerRequest(['gateway', 'survey', 'mongo'], () =>
      runLoad({
        url,
        method: 'POST',
        headers,
        nextBody: () => bodyOf('phone', pick()),
        connections: CONNECTIONS,
        durationSec: opts.durationSec,
      }),
    );
    const directCpu = {
      'mongo (direct)': direct.perRequest.mongo ?? 0,
      'bench driver (direct)': direct.result.requests > 0 ? benchMs / direct.result.requests : 0,
    };
    console.log(`\nCPU per request by phone, API (${Math.round(api.result.rps)} req/s): ${formatCpuPerRequest(api.perRequest)}`);
    console.log(`CPU per request by phone, direct (${Math.round(direct.result.rps)} req/s): ${formatCpuPerRequest(directCpu)}`);
    const cpu = { ...api.perRequest, ...directCpu };

    const worstP99 = Math.max(...results.map((r) => r.subject.p99));
    const worstPacedP99 = Math.max(...results.map((r) => r.paced.api.p99));
    const worstRatio = Math.min(...results.map((r) => r.ratio));
    const errors = results.reduce((n, r) => n + r.subject.errors + r.baseline.errors + r.paced.api.errors + r.paced.direct.errors, 0);
    console.log(
      `\nactive survey query over ${population} customers / ${population * CHANNELS} links (loaded in ${set.load_seconds?.toFixed(0)} s): ` +
        `worst API p99 at half its rate ${worstPacedP99.toFixed(1)} ms (goal ≤ 20: ${worstPacedP99 <= 20 ? 'met' : 'MISSED'}), ` +
        `at saturation (${CONNECTIONS} connections) ${worstP99.toFixed(1)} ms, ` +
        `worst API/direct ratio ${worstRatio.toFixed(3)} (goal ≥ 0.5: ${worstRatio >= 0.5 ? 'met' : 'MISSED'}), errors ${errors}`,
    );
    return { load_seconds: set.load_seconds, results, cpuPerRequestMs: cpu };
  } finally {
    await mongo.close();
  }
}

/**
 * The loaded dataset: reused when a complete one exists and the gateway still knows its token
 * and node; a load that was stopped goes on from where its marker says it got to.
 */
async function dataset(db: Db, baseUrl: string, adminToken: string): Promise<Marker> {
  const markers = db.collection<Marker>(MARKER);
  let marker = await markers.findOne({ _id: 'dataset' });
  const usable =
    marker && process.env.BENCH_SURVEY_RELOAD !== '1' && marker.customers === CUSTOMERS && (await gatewayKnows(baseUrl, marker));
  if (marker && usable && marker.state === 'complete') {
    console.log(
      `reusing ${marker.customers} customers and ${marker.links} links loaded ${marker.loaded_at.toISOString()} in ${marker.load_seconds?.toFixed(0)} s`,
    );
    return marker;
  }
  if (marker && !usable) {
    // A stale or unwanted load: its documents go before the new ones come.
    console.log(`removing the earlier bench dataset of account ${marker.account_id} (${marker.state}, ${marker.loaded} customers)`);
    await db.collection('links').deleteMany({ account_id: marker.account_id });
    await db.collection('customers').deleteMany({ account_id: marker.account_id });
    await db.collection('channels').deleteMany({ account_id: marker.account_id });
    await markers.deleteOne({ _id: 'dataset' });
    marker = null;
  }
  if (!marker) {
    const setup = await createAccount(baseUrl, adminToken);
    marker = {
      _id: 'dataset',
      state: 'loading',
      customers: CUSTOMERS,
      links: CUSTOMERS * CHANNELS,
      ...setup,
      loaded_at: new Date(),
      loaded: 0,
      load_seconds: 0,
    };
    await markers.insertOne(marker);
  } else {
    console.log(`resuming the load at customer ${marker.loaded} of ${marker.customers}`);
  }
  await ensureIndexes(db, surveyIndexes, retiredSurveyIndexes);
  if (process.env.BENCH_SURVEY_PARTIAL === '1') {
    console.log(`measuring over the ${marker.loaded} customers loaded so far (BENCH_SURVEY_PARTIAL=1)`);
    return marker;
  }
  const budgetSec = Number(process.env.BENCH_SURVEY_LOAD_BUDGET_SEC ?? 0);
  const { seconds, loaded } = await load(db, markers, marker, budgetSec > 0 ? performance.now() + budgetSec * 1000 : Infinity);
  if (loaded < CUSTOMERS) {
    console.log(
      `load budget spent: ${loaded} of ${CUSTOMERS} customers in (${seconds.toFixed(0)} s so far); measuring over those, the next run goes on loading`,
    );
    return { ...marker, loaded, load_seconds: seconds };
  }
  await markers.updateOne({ _id: 'dataset' }, { $set: { state: 'complete', loaded: CUSTOMERS, load_seconds: seconds } });
  console.log(
    `loaded ${CUSTOMERS} customers and ${marker.links} links in ${seconds.toFixed(0)} s (${Math.round((CUSTOMERS + marker.links) / seconds)} docs/s)`,
  );
  return { ...marker, state: 'complete', loaded: CUSTOMERS, load_seconds: seconds };
}

/**
 * The gateway still has the account's token and node (and, once loaded, customer 2's surveys).
 * Only a clear no (401, 404, a wrong count) counts as stale; a busy stack's 503 is asked again,
 * and anything else stops the run rather than deleting a dataset that may be fine.
 */
async function gatewayKnows(baseUrl: string, m: Marker): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}/external/v1/nodes/${m.node_id}/active_surveys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.integration_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { external_id: externalIdOf(2) } }),
    });
    const body = (await res.json()) as { count?: number };
    if (res.status === 200) return m.loaded <= 2 || body.count === expectedActive(2);
    if (res.status === 401 || res.status === 404) return false;
    if (res.status !== 503 || attempt >= 5) throw new Error(`checking the loaded dataset: ${res.status} ${JSON.stringify(body)}`);
  }
}

async function createAccount(baseUrl: string, adminToken: string) {
  const admin = async (path: string, body: unknown) => {
    // A busy shared machine can push a call past the gateway's gRPC deadline (503): try again.
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${baseUrl}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.ok) return (await res.json()) as Record<string, string>;
      if (res.status !== 503 || attempt >= 5) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
  };
  const account = await admin('/accounts', { name: 'bench active surveys' });
  const token = (await admin(`/accounts/${account.id}/tokens`, { kind: 'integration', name: 'bench' })).token!;
  const node = await admin(`/accounts/${account.id}/nodes`, { name: 'Bench store' });
  const flow = await admin(`/accounts/${account.id}/flows`, {
    name: 'Bench survey',
    questions: [{ key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' }],
  });
  const channels = [];
  for (let c = 0; c < CHANNELS; c++) {
    channels.push(
      await admin(`/accounts/${account.id}/channels`, {
        name: `Bench channel ${c}`,
        node_id: node.id,
        flow_id: flow.id,
        link_ttl_days: TTL_DAYS,
      }),
    );
  }
  return {
    account_id: account.id!,
    integration_token: token,
    node_id: node.id!,
    flow_id: flow.id!,
    channel_ids: channels.map((c) => c.id!),
  };
}

/** `op` started at `rate` per second for PACED_SEC (an open loop: a slow answer cannot slow the load); latency from each scheduled start. */
async function paced(rate: number, op: () => Promise<number | string>) {
  const windows = await runOpenLoop({
    rate,
    durationSec: PACED_SEC,
    windowSec: PACED_SEC,
    maxInFlight: 1_000,
    op: async () => ({ route: 'query', status: await op().catch((err: Error) => err.message) }),
    onWindow: () => undefined,
  });
  const latencies = windows.flatMap((w) => w.latencies.query ?? []).sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors: windows.reduce((n, w) => n + w.errors, 0) };
}

/** A UUID derived from the account and customer number, so a resumed load writes the same ids. */
function stableId(accountId: string, what: string, i: number): string {
  return nameBasedUuid(`${accountId}/${what}/${i}`, 'sha1');
}

/** After a stopped load, documents of the batches that were in flight may be there already. */
async function insertAll(col: Collection<{ _id: string }>, docs: { _id: string }[]) {
  try {
    await col.insertMany(docs, { ordered: false });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: { code?: number }[] }).writeErrors;
    if (!isDuplicateKeyError(err) || !writeErrors?.every((w) => w.code === 11000)) throw err;
  }
}

/**
 * insertMany, unordered, two batches in flight: customers, then their links. The marker records
 * how many customers (with their links) are in, so a stopped load goes on from there.
 */
async function load(db: Db, markers: Collection<Marker>, m: Marker, until: number): Promise<{ seconds: number; loaded: number }> {
  const customers: Collection<{ _id: string }> = db.collection('customers');
  const links: Collection<{ _id: string }> = db.collection('links');
  const channels = await db
    .collection<{ _id: string; name: string; node_name: string; flow_name: string }>('channels')
    .find({ _id: { $in: m.channel_ids } })
    .toArray();
  if (channels.length !== CHANNELS) throw new Error(`the survey database has ${channels.length} of the ${CHANNELS} bench channels`);
  const byId = new Map(channels.map((c) => [c._id, c]));
  const now = m.loaded_at.getTime();
  const started = performance.now();
  const earlier = m.load_seconds ?? 0;
  const resumedAt = m.loaded;
  let next = m.loaded;
  let loaded = m.loaded;
  const finished = new Set<number>();
  const worker = async () => {
    for (;;) {
      const from = next;
      if (from >= CUSTOMERS || performance.now() > until) return;
      next += BATCH;
      const n = Math.min(BATCH, CUSTOMERS - from);
      const custDocs = [];
      const linkDocs = [];
      const tokens = randomBytes(24 * n * CHANNELS);
      for (let k = 0; k < n; k++) {
        const i = from + k;
        const id = stableId(m.account_id, 'customer', i);
        const created = new Date(now - (i % 30) * DAY_MS);
        // The shape of MongoCustomerRepository.insert: e-mail as given plus its lower-case key.
        custDocs.push({
          _id: id,
          account_id: m.account_id,
          external_id: externalIdOf(i),
          email: `Customer${i}@Bench.example`,
          email_lower: emailOf(i),
          phone: phoneOf(i),
          name: `Customer ${i}`,
          schema: { TCKN: String(10_000_000_000 + i) },
          attributes: {},
          created_at: created,
          updated_at: created,
        });
        for (let c = 0; c < CHANNELS; c++) {
          const channel = byId.get(m.channel_ids[c]!)!;
          const state = c === 0 ? 'active' : i % 4 === 0 ? 'answered' : i % 4 === 1 ? 'expired' : 'active';
          // Expired links were activated more than a TTL ago; the others within the last week.
          const activated = new Date(
            state === 'expired' ? now - (TTL_DAYS + 10) * DAY_MS : now - ((i + c) % 7) * DAY_MS - (i % 86_400) * 1000,
          );
          const tokenAt = (k * CHANNELS + c) * 24;
          // The shape of MongoLinkRepository.activate's upsert.
          linkDocs.push({
            _id: stableId(m.account_id, `link${c}`, i),
            account_id: m.account_id,
            channel_id: channel._id,
            customer_id: id,
            node_id: m.node_id,
            flow_id: m.flow_id,
            node_name: channel.node_name,
            flow_name: channel.flow_name,
            channel_name: channel.name,
            token: tokens.subarray(tokenAt, tokenAt + 24).toString('base64url'),
            activation: 1,
            activated_at: activated,
            answered_at: state === 'answered' ? new Date(activated.getTime() + 60_000) : null,
            expires_at: new Date(activated.getTime() + TTL_DAYS * DAY_MS),
            built_in_responses: {},
            created_at: activated,
          });
        }
      }
      await insertAll(customers, custDocs);
      await insertAll(links, linkDocs);
      finished.add(from);
      while (finished.delete(loaded)) loaded = Math.min(loaded + BATCH, CUSTOMERS);
      const s = (performance.now() - started) / 1000;
      await markers.updateOne({ _id: 'dataset' }, { $set: { loaded, load_seconds: earlier + s } });
      process.stdout.write(
        `\rloading: ${loaded}/${CUSTOMERS} customers, ${Math.round(((loaded - resumedAt) * (1 + CHANNELS)) / s)} docs/s   `,
      );
    }
  };
  await Promise.all([worker(), worker()]);
  process.stdout.write('\n');
  return { seconds: earlier + (performance.now() - started) / 1000, loaded };
}
