import type { ConsumerHandle } from '@feedback/kit-kafka';
import { LinkClicked } from '@feedback/proto/feedback/shortener/v1/shortener';
import { recordClicks, type LinkClicks } from '../../domain/click-facts.js';
import type { FactDeps } from '../../ports.js';
import { runFactConsumer, type FactConsumerOptions } from './fact.consumer.js';

/** The shortener's codes (letters and digits); anything else is no short link of ours. */
const CODE = /^[A-Za-z0-9]{4,32}$/;

/**
 * One `link.clicked` record; null for a record of excluded redirects only (bots, previews, HEAD,
 * repeats: never a click, so never a fact); throws on anything else but a code with at least one
 * click time.
 */
export function decodeLinkClicked(value: Buffer): LinkClicks | null {
  const event = LinkClicked.decode(value);
  if (!CODE.test(event.code)) throw new Error('link.clicked without a short code');
  if (event.clickedAtMs.length === 0 && event.excludedAtMs.length + event.excludedSeconds.length > 0) return null;
  if (event.clickedAtMs.length === 0 || !event.clickedAtMs.every((ms) => Number.isSafeInteger(ms) && ms > 0))
    throw new Error('link.clicked without valid click times');
  return { code: event.code, clickedAtMs: event.clickedAtMs };
}

/**
 * The clicked fact: messaging's own group on `link.clicked`, which the gateway publishes only
 * for clicks people made (apps/gateway/src/links/click-filter.ts: no HEAD, bots, previews,
 * tools or a client's repeat within the minute), the same clicks the shortener counts.
 */
export function runClickFactsConsumer(opts: FactConsumerOptions & { deps: Pick<FactDeps, 'facts'> }): Promise<ConsumerHandle> {
  return runFactConsumer({ ...opts, decode: decodeLinkClicked, record: (clicks) => recordClicks(opts.deps, clicks) });
}
