import { freePort } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { describe, expect, it } from 'vitest';
import { oidcSignIn } from '../src/console/oidc.client.js';

// The openid-client adapter when its provider is not there (nothing listens on the port): an
// answer the routes turn into the sign-in page, never a throw. The whole flow against a real
// provider: e2e/console-sso.process.test.ts.
describe('oidcSignIn with the provider down', () => {
  it('start answers null and the callback "unavailable", each time', async () => {
    const issuerUrl = `http://127.0.0.1:${await freePort()}`;
    const sso = oidcSignIn(
      { issuerUrl, clientId: 'c', redirectUrl: 'http://127.0.0.1:1/console/sso/callback', displayName: 'Test ID' },
      createLogger('oidc-test', 'silent'),
    );
    expect(sso.displayName).toBe('Test ID');
    expect(await sso.start()).toBeNull();
    expect(await sso.start()).toBeNull();
    const flow = { state: 's'.repeat(43), nonce: 'n'.repeat(43), codeVerifier: 'v'.repeat(43) };
    expect(await sso.finish(`code=abc&state=${flow.state}`, flow)).toEqual({ ok: false, reason: 'unavailable' });
  });
});
