import type { IncomingMessage } from 'node:http';
import type { LinkRules } from './link.resolver.js';

export interface LinkRulesDeps {
  now(): number;
  /** The click filter (click-filter.ts): every redirect is recorded there, limited or not. */
  clicks: {
    record(code: string, req: IncomingMessage): void;
    /** Left out (tests of other routes), no request counts against a limit. */
    admitted?(code: string, req: IncomingMessage, admit: (counted: boolean) => Promise<boolean>): Promise<boolean>;
  };
  limit: {
    take(code: string, max: number, expiresAtMs?: number): Promise<boolean>;
    hasRoom(code: string, max: number): Promise<boolean>;
  };
}

/** What a request for a link with rules gets: its target, or the expired answer. */
export type RuleVerdict = 'redirect' | 'expired';

/**
 * The expiry and the click limit of one request for a link that has either (docs/api.md "Expiry
 * and click limits"). Past `expires_at` nothing is counted. Under `max_clicks`, only a person's
 * counted tap (click-filter.ts: not a bot, a HEAD or a repeat) uses up one click, and the tap that
 * would go past the limit is refused; a request that counts nothing is redirected while the limit
 * has room, so a link preview fetched before the recipient's tap never uses up their link.
 */
export async function ruleVerdict(deps: LinkRulesDeps, code: string, rules: LinkRules, req: IncomingMessage): Promise<RuleVerdict> {
  if (rules.expiresAtMs !== undefined && deps.now() >= rules.expiresAtMs) return 'expired';
  const max = rules.maxClicks;
  if (max === undefined) {
    deps.clicks.record(code, req);
    return 'redirect';
  }
  const admit = (counted: boolean) => (counted ? deps.limit.take(code, max, rules.expiresAtMs) : deps.limit.hasRoom(code, max));
  const admitted = deps.clicks.admitted ? await deps.clicks.admitted(code, req, admit) : await admit(false);
  return admitted ? 'redirect' : 'expired';
}
