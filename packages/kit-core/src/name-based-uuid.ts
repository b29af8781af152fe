import { createHash } from 'node:crypto';

/**
 * A UUID derived from a name (RFC 9562): the same name always gives the same id. `sha1` makes a
 * version 5 UUID, `sha256` a version 8 one (the RFC's name-based example with a modern hash).
 */
export function nameBasedUuid(name: string, hash: 'sha1' | 'sha256' = 'sha256'): string {
  const h = createHash(hash).update(name).digest('hex');
  const version = hash === 'sha1' ? '5' : '8';
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${version}${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
