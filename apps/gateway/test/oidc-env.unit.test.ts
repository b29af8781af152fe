import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.js';

const base = { ADMIN_TOKEN: 'x'.repeat(24), PUBLIC_BASE_URL: 'https://feedback.example.com/' };
const oidc = { OIDC_ISSUER_URL: 'https://id.example.com', OIDC_CLIENT_ID: 'feedback-console' };

describe('the console single sign-on settings (OIDC_*)', () => {
  it('are off unless OIDC_ISSUER_URL and OIDC_CLIENT_ID are set; the callback defaults from PUBLIC_BASE_URL', () => {
    expect(loadEnv(base).oidc).toBeNull();
    expect(loadEnv({ ...base, ...oidc, OIDC_DISPLAY_NAME: '', OIDC_REDIRECT_URL: '' }).oidc).toEqual({
      issuerUrl: 'https://id.example.com',
      clientId: 'feedback-console',
      redirectUrl: 'https://feedback.example.com/console/sso/callback',
      displayName: 'single sign-on',
    });
  });

  it('read the client secret once from its file (without the final newline); the name and callback as given', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oidc-')), 'secret');
    writeFileSync(file, 's3cret-value\n');
    const redirect = 'https://console.example.com/console/sso/callback';
    expect(
      loadEnv({ ...base, ...oidc, OIDC_CLIENT_SECRET_FILE: file, OIDC_DISPLAY_NAME: 'Acme ID', OIDC_REDIRECT_URL: redirect }).oidc,
    ).toMatchObject({ clientSecret: 's3cret-value', displayName: 'Acme ID', redirectUrl: redirect });
    expect(() => loadEnv({ ...base, ...oidc, OIDC_CLIENT_SECRET_FILE: join(file, 'nope') })).toThrow(
      /OIDC_CLIENT_SECRET_FILE: cannot read/,
    );
    writeFileSync(file, '\n');
    expect(() => loadEnv({ ...base, ...oidc, OIDC_CLIENT_SECRET_FILE: file })).toThrow(/OIDC_CLIENT_SECRET_FILE: .* is empty/);
  });

  it('refuse half a configuration and a provider reached in the clear (plain http only on this machine)', () => {
    expect(() => loadEnv({ ...base, OIDC_ISSUER_URL: oidc.OIDC_ISSUER_URL })).toThrow(/OIDC_CLIENT_ID: is needed/);
    expect(() => loadEnv({ ...base, OIDC_CLIENT_ID: 'x' })).toThrow(/OIDC_ISSUER_URL: is needed/);
    expect(() => loadEnv({ ...base, OIDC_DISPLAY_NAME: 'Acme ID' })).toThrow(/OIDC_DISPLAY_NAME: is set but OIDC_ISSUER_URL is not/);
    expect(() => loadEnv({ ...base, ...oidc, OIDC_ISSUER_URL: 'http://id.example.com' })).toThrow(/OIDC_ISSUER_URL: must be an https URL/);
    expect(() => loadEnv({ ...base, ...oidc, OIDC_ISSUER_URL: 'not a url' })).toThrow(/OIDC_ISSUER_URL: must be an https URL/);
    expect(() => loadEnv({ ...base, ...oidc, OIDC_REDIRECT_URL: 'javascript:alert(1)' })).toThrow(/OIDC_REDIRECT_URL: must be an http/);
    expect(loadEnv({ ...base, ...oidc, OIDC_ISSUER_URL: 'http://127.0.0.1:4000' }).oidc?.issuerUrl).toBe('http://127.0.0.1:4000');
  });
});
