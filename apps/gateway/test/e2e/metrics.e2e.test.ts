import { readStackFile } from '@feedback/dev-stack';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackClient } from './stack-client.js';
import { linkClient } from './link-client.js';
import { populatedAccount, type TenantFixture } from './tenant-fixture.js';
import { publicError } from '../public-error.js';

// Every process's metrics listener, scraped as Prometheus would: its own port, never the API's.
const stack = readStackFile();
const api = stackClient();
const APPS = ['gateway', 'flow', 'file', 'shortener', 'survey', 'messaging', 'webhooks'] as const;
type App = (typeof APPS)[number];
const SERVICES: Record<Exclude<App, 'gateway'>, string> = {
  flow: 'feedback.flow.v1.FlowService',
  file: 'feedback.file.v1.FileService',
  shortener: 'feedback.shortener.v1.ShortenerService',
  survey: 'feedback.survey.v1.SurveyService',
  messaging: 'feedback.messaging.v1.MessagingService',
  webhooks: 'feedback.webhooks.v1.WebhookService',
};

function metricsUrl(app: App): string {
  const url = stack.metrics?.[app];
  if (!url) throw new Error('stack file has no metrics addresses: restart the apps (infra/apps.sh) to write them');
  return url;
}

type Series = { name: string; labels: Record<string, string>; value: number };

async function scrape(app: App): Promise<Series[]> {
  const res = await fetch(`${metricsUrl(app)}/metrics`);
  expect(res.status).toBe(200);
  const series: Series[] = [];
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    series.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return series;
}

/** The sum of every series of `name` whose labels include `labels`. */
const total = (series: Series[], name: string, labels: Record<string, string>) =>
  series.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('metrics listeners', () => {
  it('the public API port does not serve /metrics: 404 in the error shape', async () => {
    const res = await api.request('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.json).toEqual(publicError('Requested resource not found!', 13002, { route: 'GET /metrics' }));
  });

  it.each(APPS)('%s answers GET /metrics with its process metrics, labelled app, and 404 for anything else', async (app) => {
    const series = await scrape(app);
    expect(series.find((s) => s.name === 'process_cpu_user_seconds_total')?.labels).toEqual({ app });
    expect(total(series, 'nodejs_eventloop_lag_seconds', { app })).toBeGreaterThanOrEqual(0);
    expect(series.filter((s) => s.name === 'process_start_time_seconds')).toHaveLength(1);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/health'],
      ['POST', '/metrics'],
    ] as const) {
      const res = await fetch(`${metricsUrl(app)}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(publicError('Requested resource not found!', 13002, null));
    }
  });
});

describe('metrics after an integrator used every service', () => {
  const before = {} as Record<App, Series[]>;
  let tenant: TenantFixture;
  beforeAll(async () => {
    for (const app of APPS) before[app] = await scrape(app);
    // Flow, survey (personal link), shortener (short link), file (upload: file.uploaded), messaging
    // (an SMS sharing: sms.dispatch), then a click on the short link and an answer to the survey.
    tenant = await populatedAccount('metrics');
    // The account's links are on its customer domain, which serves them only under its own Host.
    expect((await linkClient().tapOn(tenant.ids.domain!, tenant.ids.code!)).status).toBe(302);
    const answer = await fetch(`${stack.base_url}/s/${tenant.ids.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.base_url! },
      body: 'n.nps=9',
    });
    expect(answer.status).toBe(200);
  });

  const grew = async (app: App, name: string, labels: Record<string, string>) =>
    total(await scrape(app), name, labels) - total(before[app], name, labels);

  it.each(Object.entries(SERVICES))('%s counts and times the gRPC calls it served, by method and code', async (app, service) => {
    const labels = { app, grpc_service: service, grpc_code: 'OK' };
    expect(await grew(app as App, 'grpc_server_handled_total', labels)).toBeGreaterThanOrEqual(1);
    expect(await grew(app as App, 'grpc_server_handling_seconds_count', labels)).toBeGreaterThanOrEqual(1);
    const methods = new Set(
      (await scrape(app as App)).filter((s) => s.name === 'grpc_server_handled_total').map((s) => s.labels.grpc_method),
    );
    for (const m of methods) expect(m).toMatch(/^[A-Z][A-Za-z]+$/);
  });

  it("the gateway counts its gRPC calls to every service, and both listeners' requests (the link thread's included)", async () => {
    for (const service of Object.values(SERVICES)) {
      expect(
        await grew('gateway', 'grpc_client_handled_total', { app: 'gateway', grpc_service: service, grpc_code: 'OK' }),
      ).toBeGreaterThanOrEqual(1);
    }
    expect(await grew('gateway', 'http_request_duration_seconds_count', { app: 'gateway', listener: 'api' })).toBeGreaterThanOrEqual(5);
    expect(
      await grew('gateway', 'http_request_duration_seconds_count', { app: 'gateway', listener: 'link', route: '/:code' }),
    ).toBeGreaterThanOrEqual(1);
    // The link thread resolves the code over gRPC itself: its client calls are in the same exposition.
    expect(
      await grew('gateway', 'grpc_client_handled_total', { app: 'gateway', grpc_service: SERVICES.shortener, grpc_method: 'Resolve' }),
    ).toBeGreaterThanOrEqual(1);
    const series = await scrape('gateway');
    expect(series.filter((s) => s.name === 'process_resident_memory_bytes')).toHaveLength(1);
  });

  it('messaging counts the records its consumers finished, and reports their lag', async () => {
    // The fixture's sharing has one phone: the small sharings' lane (apps/messaging/README.md "Fair dispatch between accounts").
    const dispatch = { app: 'messaging', group: 'messaging-sms-dispatch.priority', topic: 'sms.dispatch.priority' };
    await eventually(
      'an sms.dispatch.priority record counted',
      async () => (await grew('messaging', 'kafka_consumer_records_total', dispatch)) >= 1,
    );
    await eventually(
      'a file.uploaded record counted',
      async () =>
        (await grew('messaging', 'kafka_consumer_records_total', { app: 'messaging', group: 'messaging-csv', topic: 'file.uploaded' })) >=
        1,
    );
    const lag = (await scrape('messaging')).filter((s) => s.name === 'kafka_consumer_lag' && s.labels.topic === dispatch.topic);
    expect(lag.length).toBeGreaterThanOrEqual(1);
    for (const s of lag) {
      expect(s.labels).toMatchObject(dispatch);
      expect(s.labels.partition).toMatch(/^\d+$/);
      expect(s.value).toBeGreaterThanOrEqual(0);
    }
    expect(
      await grew('messaging', 'kafka_producer_records_total', { app: 'messaging', topic: dispatch.topic, result: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('file and survey count the records they published', async () => {
    await eventually(
      'file.uploaded published',
      async () => (await grew('file', 'kafka_producer_records_total', { app: 'file', topic: 'file.uploaded', result: 'ok' })) >= 1,
    );
    await eventually(
      'survey.answered published',
      async () => (await grew('survey', 'kafka_producer_records_total', { app: 'survey', topic: 'survey.answered', result: 'ok' })) >= 1,
    );
    expect(await grew('file', 'kafka_producer_send_seconds_count', { app: 'file', topic: 'file.uploaded' })).toBeGreaterThanOrEqual(1);
  });
});
