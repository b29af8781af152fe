import { readStackFile } from '@feedback/dev-stack';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

// The SMS metrics as an operator's Prometheus sees them: sharings sent through the public API,
// then the messaging service's (and the gateway's) metrics ports scraped. Other tests may send
// SMS through the same stack meanwhile, so counters are checked to rise by at least ours.
const stack = readStackFile();

function metricsUrl(app: 'gateway' | 'messaging'): string {
  const url = stack.metrics?.[app];
  if (!url) throw new Error('stack file has no metrics addresses: restart the apps (infra/apps.sh) to write them');
  return url;
}

/** The sum of every series of `name` whose labels include `labels`, from one scrape. */
async function scrapeTotal(app: 'gateway' | 'messaging', name: string, labels: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${metricsUrl(app)}/metrics`);
  expect(res.status).toBe(200);
  let sum = 0;
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

describe('SMS metrics on the running stack', () => {
  const sms = smsClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  beforeAll(async () => {
    setup = await sms.newCampaign();
  });

  it('a sharing raises sms_accepted_total by its accepted phones and sms_sent_total{provider="outbox"} once each is handed over', async () => {
    const before = {
      accepted: await scrapeTotal('messaging', 'sms_accepted_total', { app: 'messaging' }),
      sent: await scrapeTotal('messaging', 'sms_sent_total', { app: 'messaging', provider: 'outbox' }),
      failed: await scrapeTotal('messaging', 'sms_failed_total', { app: 'messaging', provider: 'outbox' }),
    };
    const phones = [randomPhone(), randomPhone(), randomPhone()];
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [...phones, phones[0], 'not a phone'] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ accepted: 3, duplicate: 1, rejected: 1 });
    const sharingId = res.json.id as string;

    // Accepted is counted before the API answers (the dispatch events are acknowledged by then).
    expect(await scrapeTotal('messaging', 'sms_accepted_total', { app: 'messaging' })).toBeGreaterThanOrEqual(before.accepted + 3);

    // The stack's deployment provider is the outbox: all three land there, and are counted as sent.
    await waitFor('the three SMS in the outbox', async () => {
      const got = (await sms.outbox(setup.account.id)).data.filter((m) => m.sharing_id === sharingId);
      return got.length === 3 ? got : undefined;
    });
    const sent = await waitFor('sms_sent_total to count them', async () => {
      const now = await scrapeTotal('messaging', 'sms_sent_total', { app: 'messaging', provider: 'outbox' });
      return now >= before.sent + 3 ? now : undefined;
    });
    expect(sent).toBeGreaterThanOrEqual(before.sent + 3);
    // Nothing failed meanwhile: the outbox refuses nothing while its database is up.
    expect(await scrapeTotal('messaging', 'sms_failed_total', { app: 'messaging', provider: 'outbox' })).toBe(before.failed);
  });

  it('the gateway counts the sharing limiter’s decisions, and says Redis decides (fallback gauge 0)', async () => {
    const admittedBefore = await scrapeTotal('gateway', 'rate_limit_decisions_total', {
      app: 'gateway',
      limiter: 'sms_sharing',
      result: 'admitted',
      source: 'redis',
    });
    const res = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [randomPhone()] });
    expect(res.status, res.text).toBe(200);
    expect(
      await scrapeTotal('gateway', 'rate_limit_decisions_total', {
        app: 'gateway',
        limiter: 'sms_sharing',
        result: 'admitted',
        source: 'redis',
      }),
    ).toBeGreaterThanOrEqual(admittedBefore + 1);
    const metrics = await (await fetch(`${metricsUrl('gateway')}/metrics`)).text();
    expect(metrics).toMatch(/^rate_limit_fallback_active\{limiter="sms_sharing",app="gateway"\} 0$/m);
  });
});
