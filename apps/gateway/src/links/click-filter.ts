import type { IncomingMessage } from 'node:http';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import type { ClickDetails } from './click-details.js';

/**
 * Whether a request for a short link is a person opening it, judged on the request alone:
 * a GET (HEAD is a check, not a visit) from a browser. Crawlers, link-preview fetchers (iMessage
 * and WhatsApp fetch every link they show, so each iPhone recipient would otherwise count as a
 * click) and tools (curl, wget, HTTP libraries) are told apart by isbot's list of user agents;
 * a request without a user agent is no browser either.
 */
export function isPersonsTap(method: string | undefined, userAgent: string | undefined): boolean {
  return personsAgent(method, userAgent) !== undefined;
}

/**
 * The same judgement, naming a person's user agent by a short name of this process's ("#17"):
 * the key of a client's taps in this process's memory (recent-clicks.ts) is then its address and
 * that name, not the ~150 characters of the user agent to join and hash on every tap. A name is
 * never given to another user agent; one forgotten (after an hour, or 5,000 newer ones) gets a
 * new name, and its client's next tap asks Redis again.
 */
export function personsAgent(method: string | undefined, userAgent: string | undefined): string | undefined {
  if (method !== 'GET' || !userAgent) return undefined;
  let agent = verdicts.get(userAgent);
  if (agent === undefined) verdicts.set(userAgent, (agent = isbot(userAgent) ? '' : `#${++agentsNamed}`));
  return agent || undefined;
}

let agentsNamed = 0;

// isbot is one large regular expression: 1.4-2.3 µs per browser user agent, measured against a
// redirect's 24 µs (docs/performance.md). Most taps come from a few hundred user agents; the
// size bound keeps made-up 16 KiB user agents from filling memory. '' for no person's.
const verdicts = new LRUCache<string, string>({
  max: 5_000,
  maxSize: 2_000_000,
  sizeCalculation: (_person, ua) => ua.length,
  ttl: 3_600_000,
});

export interface ClickFilterDeps {
  /** The `link.clicked` publisher (click.publisher.ts). */
  publisher: {
    record(code: string, at?: number, details?: ClickDetails): void;
    /** A redirect that is no click: counted apart as `bots_excluded`, never as a click. */
    exclude(code: string, at?: number): void;
  };
  /**
   * Whether this client's click on this code is its first in the window (recent-clicks.ts); `alias`
   * names the same client in this process's memory, shorter.
   */
  recent: { firstInWindow(code: string, client: string, alias?: string): boolean | Promise<boolean> };
  /** The client's address as fastify's `request.ip` has it under TRUST_PROXY (client-ip.ts). */
  clientIp(req: IncomingMessage): string;
  /** Device, OS, browser, referrer host and country of a counted click (click-details.ts). */
  details(req: IncomingMessage): ClickDetails;
}

/**
 * The one place that decides which redirects count as clicks: both redirect paths hand it every
 * redirect they answered; it publishes a person's first tap of a code per window, with what it
 * came from, and every other redirect (bots, previews, tools, HEAD, repeats) as excluded. A
 * client is its address and user agent: for an SMS link, whose code is the recipient's own, that
 * is the recipient's phone; for a link many people share, people behind one address still count
 * apart unless their browsers are the same.
 */
export class ClickFilter {
  /** Taps waiting for Redis to say whether they are a client's first: drained() waits for them. */
  private readonly deciding = new Set<Promise<void>>();

  constructor(private readonly deps: ClickFilterDeps) {}

  /** Called after the redirect is written: nothing here delays or fails it. */
  record(code: string, req: IncomingMessage): void {
    const ua = req.headers['user-agent'];
    const at = Date.now();
    const agent = personsAgent(req.method, ua);
    if (agent === undefined) return this.deps.publisher.exclude(code, at);
    const ip = this.deps.clientIp(req);
    const first = this.deps.recent.firstInWindow(code, `${ip} ${ua}`, `${ip} ${agent}`);
    if (first === true) this.count(code, at, req);
    else if (first === false) this.deps.publisher.exclude(code, at);
    else {
      const decided = first.then((yes) => (yes ? this.count(code, at, req) : this.deps.publisher.exclude(code, at)));
      this.deciding.add(decided);
      void decided.finally(() => this.deciding.delete(decided));
    }
  }

  /**
   * Resolves once every tap already answered is handed to the publisher. Shutdown calls it after
   * the listener drained and before the publisher sends its last clicks: a tap whose Redis answer
   * came after that send would otherwise be lost.
   */
  async drained(): Promise<void> {
    while (this.deciding.size > 0) await Promise.allSettled([...this.deciding]);
  }

  /**
   * For a link with a click limit (link-rules.ts), before its answer is written: tells `admit`
   * whether this request is a counted tap (only those use the limit up) and records it as `record`
   * would if `admit` lets it redirect; a refused tap is no redirect, so it is recorded as nothing.
   */
  async admitted(code: string, req: IncomingMessage, admit: (counted: boolean) => Promise<boolean>): Promise<boolean> {
    const ua = req.headers['user-agent'];
    const at = Date.now();
    const agent = personsAgent(req.method, ua);
    const ip = this.deps.clientIp(req);
    const counted = agent !== undefined && (await this.deps.recent.firstInWindow(code, `${ip} ${ua}`, `${ip} ${agent}`));
    const yes = await admit(counted);
    if (yes && counted) this.count(code, at, req);
    else if (yes) this.deps.publisher.exclude(code, at);
    return yes;
  }

  private count(code: string, at: number, req: IncomingMessage) {
    this.deps.publisher.record(code, at, this.deps.details(req));
  }
}
