import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

type Trust = boolean | string | ((addr: string, hop: number) => boolean);

/**
 * The client's address of a raw request, as fastify's `request.ip` gives it under the same
 * TRUST_PROXY (parseTrustProxy): the redirect fast path answers before fastify sees the request.
 */
export function clientIpOf(trust: Trust): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? '';
  const fn = trust === true ? () => true : typeof trust === 'function' ? trust : proxyAddr.compile(trust.split(',').map((s) => s.trim()));
  return (req) => proxyAddr(req, fn);
}
