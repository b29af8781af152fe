import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { SendResult, UrlPolicy, WebhookTransport } from '../../domain/ports.js';
import type { AddressGuard } from './address-guard.js';

const RESPONSE_BYTES = 1024;

export interface TransportOptions {
  guard: AddressGuard;
  allowHttp: boolean;
  /** A 2xx within this is a success (10 s). */
  timeoutMs: number;
  userAgent?: string;
}

class RefusedAddressError extends Error {}

/**
 * A DNS lookup that answers only addresses the guard allows: it is the agent's lookup, so the
 * address checked is the one connected to (no second resolution a rebinding DNS could change).
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => guard.refusal(a.address)).find((r) => r !== null);
      // One refused address refuses the host: connecting to "the other one" would let DNS pick.
      if (refused || addresses.length === 0)
        return callback(new RefusedAddressError(`${hostname}: ${refused ?? 'no address'}`) as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The deployment's rule on a URL before any lookup: the scheme, and an IP written in it (never looked up). */
function literalRefusal(guard: AddressGuard, allowHttp: boolean, url: URL): string | null {
  if (url.protocol === 'http:' && !allowHttp) return 'must be an https URL (this deployment refuses plain http)';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? guard.refusal(host) : null;
}

/** Every address a name resolves to (as the agents' lookup would see them). */
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await dnsPromises.lookup(hostname, { all: true })).map((a) => a.address);

/** How long a registration waits for its name's addresses. */
const RESOLVE_WAIT_MS = 2_000;

/**
 * The rule on a URL when it is saved: the scheme, an IP written in it, and every address its name
 * resolves to now, so a name pointing at a refused address is refused at once. A name that does
 * not resolve now is accepted: it reaches nothing until it resolves, and every delivery checks
 * the addresses it connects to again (guardedLookup), so a name changed later gains nothing.
 */
export function urlPolicy(guard: AddressGuard, allowHttp: boolean, resolve: Resolver = systemResolver): UrlPolicy {
  return async (url) => {
    const refused = literalRefusal(guard, allowHttp, url);
    if (refused || isIP(url.hostname.replace(/^\[|\]$/g, ''))) return refused;
    let timer: NodeJS.Timeout | undefined;
    const addresses = await Promise.race([
      resolve(url.hostname).catch(() => [] as string[]),
      new Promise<string[]>((done) => (timer = setTimeout(() => done([]), RESOLVE_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    const refusal = addresses.map((a) => guard.refusal(a)).find((r) => r !== null);
    return refusal ? `${url.hostname} resolves to ${refusal.replace(/ is (an? )/, ', $1')}` : null;
  };
}

/** POSTs with node's http(s) (no redirects followed), reading at most 1 KiB of the answer. */
export function httpTransport(opts: TransportOptions): WebhookTransport {
  const lookup = guardedLookup(opts.guard);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, lookup }),
    'https:': new https.Agent({ keepAlive: true, lookup }),
  };
  return {
    async send(rawUrl, headers, body) {
      const started = performance.now();
      const result = (r: Omit<SendResult, 'latencyMs'>): SendResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        return result({ statusCode: 0, error: 'invalid URL', responseBody: '' });
      }
      // The name's addresses are checked by the agents' lookup, as it connects.
      const refused = literalRefusal(opts.guard, opts.allowHttp, url);
      if (refused) return result({ statusCode: 0, error: `refused: ${refused}`, responseBody: '' });
      const agent = agents[url.protocol as 'http:' | 'https:'];
      return new Promise<SendResult>((resolve) => {
        const req = (url.protocol === 'https:' ? https : http).request(url, {
          method: 'POST',
          agent,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': opts.userAgent ?? 'feedback-webhooks/1',
          },
        });
        const timer = setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
        req.on('error', (err) => {
          clearTimeout(timer);
          const message = err instanceof RefusedAddressError ? `refused: ${err.message}` : err.message;
          resolve(result({ statusCode: 0, error: message, responseBody: '' }));
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8');
            resolve(result({ statusCode: res.statusCode ?? 0, error: '', responseBody: text }));
          };
          res.on('data', (chunk: Buffer) => {
            if (size >= RESPONSE_BYTES) return;
            chunks.push(chunk);
            size += chunk.length;
            // Enough read: the rest of a large answer is not waited for.
            if (size >= RESPONSE_BYTES) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', done);
          res.on('close', done);
        });
        req.end(body);
      });
    },
  };
}
