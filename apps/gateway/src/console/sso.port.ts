/**
 * Single sign-on for the console (docs/decisions.md "Single sign-on"): an OpenID Connect provider
 * of the deployment's says who the person is; the console's own users decide who gets in.
 */

/** What the browser's round trip must carry from the start to the callback (in the `fs_sso` cookie). */
export interface SsoFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The provider's answer at the callback. `denied`: the provider answered an error (the person
 * cancelled, or it refused); `rejected`: the answer did not hold up (code, token, signature, nonce);
 * `unavailable`: the provider could not be reached or answered nonsense.
 */
export type SsoOutcome =
  { ok: true; email: string | undefined; emailVerified: boolean } | { ok: false; reason: 'denied' | 'rejected' | 'unavailable' };

export interface ConsoleSso {
  /** The provider's name on the sign-in page's button (OIDC_DISPLAY_NAME). */
  displayName: string;
  /** Where to send the browser, and the flow's secrets; null when the provider cannot be reached. */
  start(): Promise<{ url: string; flow: SsoFlow } | null>;
  /** Trades the callback's code (its query string, as received) for the verified identity. */
  finish(callbackQuery: string, flow: SsoFlow): Promise<SsoOutcome>;
}
