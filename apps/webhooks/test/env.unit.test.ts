import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.js';

const key = Buffer.alloc(32, 7).toString('base64');
// Every configuration below needs the deployment's personal data key besides its own.
const base = { PERSONAL_DATA_KEY: Buffer.alloc(32, 9).toString('base64') };

describe('configuration', () => {
  it('needs WEBHOOKS_SECRET_KEY, 32 bytes in base64', () => {
    expect(() => loadEnv(base)).toThrow(/WEBHOOKS_SECRET_KEY/);
    expect(() => loadEnv({ ...base, WEBHOOKS_SECRET_KEY: 'short' })).toThrow(/WEBHOOKS_SECRET_KEY/);
    expect(loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key }).WEBHOOKS_SECRET_KEY).toEqual(Buffer.alloc(32, 7));
  });

  it('defaults: https only, nothing private allowed, the documented schedule', () => {
    const config = loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key });
    expect(config).toMatchObject({
      WEBHOOKS_ALLOW_HTTP: false,
      WEBHOOKS_ALLOWED_CIDRS: [],
      WEBHOOKS_TIMEOUT_MS: 10_000,
      MONGO_DB: 'webhooks',
    });
    expect(config.WEBHOOKS_RETRY_SCHEDULE).toEqual([5, 30, 120, 600, 1_800, 7_200, 21_600, 43_200, 86_400].map((s) => s * 1000));
  });

  it('names a bad range or schedule', () => {
    expect(() => loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key, WEBHOOKS_ALLOWED_CIDRS: '10.0.0.0/40' })).toThrow(/WEBHOOKS_ALLOWED_CIDRS/);
    expect(() => loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key, WEBHOOKS_RETRY_SCHEDULE: '5s,later' })).toThrow(/WEBHOOKS_RETRY_SCHEDULE/);
    expect(() => loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key, WEBHOOKS_LEASE_MS: '5000' })).toThrow(/WEBHOOKS_LEASE_MS/);
    expect(loadEnv({ ...base, WEBHOOKS_SECRET_KEY: key, WEBHOOKS_RETRY_SCHEDULE: '1s,2s', WEBHOOKS_ALLOW_HTTP: 'true' })).toMatchObject({
      WEBHOOKS_RETRY_SCHEDULE: [1000, 2000],
      WEBHOOKS_ALLOW_HTTP: true,
    });
  });
});
