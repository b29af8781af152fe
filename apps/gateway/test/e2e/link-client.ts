import { request as httpRequest } from 'node:http';
import { stackClient } from './stack-client.js';

/**
 * A phone's browser (Safari on iOS). Only a person's first GET of a code in a minute is a click
 * (docs/api.md "What counts as a click"): fetch's own user agent (`node`) is a tool's, and
 * `person(n)` stands for the n-th of several people tapping one link.
 */
export const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const person = (n = 0) => ({ 'user-agent': n === 0 ? SAFARI_IOS : `${SAFARI_IOS} person/${n}` });

/** The link listener ({shortener_url}) as an integrator or a phone sees it. */
export function linkClient() {
  const api = stackClient();
  const base = api.stack.shortener_url;
  if (!base) throw new Error('stack file has no shortener_url: is the gateway up?');

  async function shorten(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
    const res = await fetch(`${base}/shorten`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    let json: Record<string, unknown> & { errors?: Record<string, string> | null } = {};
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Follows nothing: answers the redirect itself. */
  async function tap(code: string, method = 'GET', headers: Record<string, string> = {}) {
    const res = await fetch(`${base}/${code}`, { method, redirect: 'manual', headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** GET /{code} as a customer domain's visitor: with its Host (fetch does not let a caller set it). */
  function tapOn(host: string, code: string) {
    const url = new URL(`${base}/${code}`);
    return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers: { host } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** A POST /shorten from another loopback address, i.e. another client IP. */
  function shortenFrom(localAddress: string, body: string, headers: Record<string, string> = {}) {
    const url = new URL(`${base}/shorten`);
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            localAddress,
            headers: { 'content-type': 'application/json', ...headers },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : {} }));
          },
        );
        req.on('error', reject);
        req.end(body);
      },
    );
  }

  return { api, base, shorten, tap, tapOn, shortenFrom };
}
