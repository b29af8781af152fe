import type { FastifyInstance } from 'fastify';
import { adminFeature } from '../src/api/admin/admin.feature.js';
import { filesFeature } from '../src/api/files/files.feature.js';
import { flowsFeature } from '../src/api/flows/flows.feature.js';
import { responsesFeature } from '../src/api/responses/responses.feature.js';
import { smsFeature } from '../src/api/sms/sms.feature.js';
import { smsLimitsFeature } from '../src/api/sms-limits/sms-limits.feature.js';
import { surveysFeature } from '../src/api/surveys/surveys.feature.js';
import { webhooksFeature } from '../src/api/webhooks/webhooks.feature.js';
import { testApi, testLink } from './listeners.js';

/** Both listeners as main.ts and link-thread.main.ts build them (same features, same order), on ports that are never called. */
export async function openApiListeners(opts: { publicUrl?: string; shortenerUrl?: string } = {}) {
  const unused = () => Promise.reject(new Error('not used'));
  // Ports the documents never call: every method rejects.
  const port = <T>() => new Proxy({}, { get: () => unused }) as T;
  const accounts = { accounts: port(), tokens: port(), nodes: port(), clock: { now: () => new Date() }, newId: () => 'x' };
  const api = await testApi({
    publicUrl: opts.publicUrl,
    features: [
      flowsFeature({ flows: port(), accounts: port(), flowViews: port() }),
      filesFeature({ files: port(), publicBaseUrl: opts.publicUrl ?? 'http://127.0.0.1', maxUploadBytes: 1024 }),
      adminFeature({ ...(accounts as Parameters<typeof adminFeature>[0]), shortener: port() }),
      surveysFeature({ surveys: port(), shortener: port(), sms: port(), accounts: port(), nodes: port(), displayTimeZone: 'UTC' }),
      smsFeature({
        sms: port(),
        accounts: port(),
        nodes: port(),
        limiter: port(),
        idempotency: port(),
        clock: { now: () => new Date() },
        maxPhones: 10,
        bodyLimitBytes: 1024,
        sharingDeadlineMs: 1000,
        cancelDeadlineMs: 1000,
      }),
      webhooksFeature({ webhooks: port(), accounts: port() }),
      responsesFeature({ surveys: port(), flows: port(), accounts: port(), campaigns: port() }),
      smsLimitsFeature({ limits: port(), usage: port(), accounts: port() }),
    ],
  });
  const link = await testLink({ publicUrl: opts.shortenerUrl, links: { maxUrlLength: 2048 } });
  return { api, link, close: () => Promise.all([api.close(), link.close()]) };
}

/** The document a listener serves at /openapi.json. */
export async function servedDocument(app: FastifyInstance): Promise<Record<string, unknown>> {
  const res = await app.inject('/openapi.json');
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  return res.json();
}
