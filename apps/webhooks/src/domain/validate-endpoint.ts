import { errors } from '@feedback/kit-core';
import type { UrlPolicy } from './ports.js';
import { EVENT_TYPES } from './webhook.js';

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

/** An absolute URL the deployment allows; a 400 naming `url` otherwise. */
export async function validUrl(raw: string, policy: UrlPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.invalid({ url: 'must be an absolute URL' });
  }
  if (raw.length > MAX_URL) throw errors.invalid({ url: `must be at most ${MAX_URL} characters` });
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw errors.invalid({ url: 'must be an https URL' });
  // Credentials in the URL would be stored and shown in clear: the signature is the receiver's proof.
  if (url.username || url.password) throw errors.invalid({ url: 'must not contain credentials' });
  const refused = await policy(url);
  if (refused) throw errors.invalid({ url: refused });
  return url.toString();
}

/** At least one known event type, each once. */
export function validEvents(events: readonly string[]): string[] {
  if (events.length === 0) throw errors.invalid({ events: `must list at least one of ${EVENT_TYPES.join(', ')}` });
  events.forEach((e, i) => {
    if (!(EVENT_TYPES as readonly string[]).includes(e))
      throw errors.invalid({ [`events[${i}]`]: `unknown event type; one of ${EVENT_TYPES.join(', ')}` });
  });
  return [...new Set(events)];
}

export function validDescription(description: string): string {
  if (description.length > MAX_DESCRIPTION) throw errors.invalid({ description: `must be at most ${MAX_DESCRIPTION} characters` });
  return description;
}
