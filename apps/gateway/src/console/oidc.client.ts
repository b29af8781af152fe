import type { Logger } from '@feedback/kit-core';
import * as oidc from 'openid-client';
import type { ConsoleSso, SsoOutcome } from './sso.port.js';

export interface OidcSettings {
  /** OIDC_ISSUER_URL: its /.well-known/openid-configuration is read on the first sign-in. */
  issuerUrl: string;
  clientId: string;
  /** From OIDC_CLIENT_SECRET_FILE; none: a public client (PKCE alone). */
  clientSecret?: string;
  /** OIDC_REDIRECT_URL: this console's /console/sso/callback as the provider knows it. */
  redirectUrl: string;
  displayName: string;
}

// A provider that does not answer in this time is down: the person gets the sign-in page back, not a hang.
const TIMEOUT_SEC = 5;

/** Why an exchange failed, without the token or the person in it (logged). */
function reasonOf(err: unknown): Exclude<SsoOutcome, { ok: true }>['reason'] {
  if (err instanceof oidc.AuthorizationResponseError) return 'denied';
  if (err instanceof oidc.ResponseBodyError) return 'rejected';
  const code = err instanceof oidc.ClientError ? err.code : undefined;
  // fetch's own failure (refused, reset, DNS) is a TypeError; timeouts and non-JSON or 5xx answers have codes.
  if (err instanceof TypeError || code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT' || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM')
    return 'unavailable';
  if (code === 'OAUTH_RESPONSE_IS_NOT_JSON') return 'unavailable';
  return 'rejected';
}

/** The console's single sign-on with openid-client: authorization code flow with PKCE, state and nonce. */
export function oidcSignIn(settings: OidcSettings, logger: Logger): ConsoleSso {
  const issuer = new URL(settings.issuerUrl);
  // Discovered once and kept (a restart reads it anew); a failed discovery is tried again at the next sign-in.
  let config: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    if (!config) {
      const found = oidc.discovery(
        issuer,
        settings.clientId,
        settings.clientSecret === undefined ? undefined : { client_secret: settings.clientSecret },
        settings.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(settings.clientSecret),
        // env.ts admits plain HTTP only for a provider on this machine (a test's, a developer's).
        { timeout: TIMEOUT_SEC, execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [] },
      );
      config = found;
      found.catch(() => {
        if (config === found) config = undefined;
      });
    }
    return config;
  };

  return {
    displayName: settings.displayName,

    async start() {
      let c: oidc.Configuration;
      try {
        c = await configuration();
      } catch (err) {
        logger.warn({ reason: reasonOf(err), err: (err as Error).message }, 'single sign-on: the provider could not be discovered');
        return null;
      }
      const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(c, {
        redirect_uri: settings.redirectUrl,
        scope: 'openid email',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, flow };
    },

    async finish(callbackQuery, flow) {
      // The provider saw this exact redirect URL; behind a proxy the request's own URL may differ.
      const current = new URL(settings.redirectUrl);
      current.search = callbackQuery;
      try {
        const c = await configuration();
        const tokens = await oidc.authorizationCodeGrant(c, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims()!;
        if (typeof claims.email === 'string') return { ok: true, email: claims.email, emailVerified: claims.email_verified === true };
        // Many providers put the e-mail only in UserInfo for the code flow: asked with the access
        // token just issued, and only for the ID token's subject.
        const info = await oidc.fetchUserInfo(c, tokens.access_token, claims.sub);
        return { ok: true, email: typeof info.email === 'string' ? info.email : undefined, emailVerified: info.email_verified === true };
      } catch (err) {
        const reason = reasonOf(err);
        logger.warn({ reason, err: (err as Error).message }, 'single sign-on: the callback failed');
        return { ok: false, reason };
      }
    },
  };
}
