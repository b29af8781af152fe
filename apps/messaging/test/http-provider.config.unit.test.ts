import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { dlrUrl, verifyMessageId } from '../src/providers/adapters/http/dlr-signature.js';
import { parseHttpProviderConfig } from '../src/providers/adapters/http/http-provider.config.js';
import { HttpSmsProvider } from '../src/providers/adapters/http/http-sms.provider.js';

describe('generic HTTP provider configuration', () => {
  it('names the offending field', () => {
    expect(() => parseHttpProviderConfig('{"url": "nope"}')).toThrow(/url: /);
    expect(() => parseHttpProviderConfig('{"url": "http://x", "method": "DELETE"}')).toThrow(/method: /);
    expect(() => parseHttpProviderConfig('{"url": "http://x", "succes": {}}')).toThrow(/succes/);
    expect(() => parseHttpProviderConfig('{"url": "http://x", "success": {"body_regex": "("}}')).toThrow(/success.body_regex/);
    expect(() => parseHttpProviderConfig('{')).toThrow(/not valid JSON/);
  });

  it('signs callback URLs so that only the provider can report', () => {
    const url = new URL(dlrUrl('http://h:1/', 'secret', 'abc.905', 'status=%d'));
    expect(url.pathname).toBe('/sms/dlr/abc.905');
    expect(url.search).toMatch(/&status=%d$/);
    expect(verifyMessageId('secret', 'abc.905', url.searchParams.get('sig')!)).toBe(true);
    expect(verifyMessageId('secret', 'abc.906', url.searchParams.get('sig')!)).toBe(false);
  });

  it('sends a JSON body with escaped placeholders and reads the provider message id', async () => {
    let received: { method?: string; type?: string; body: string; auth?: string } = { body: '' };
    const srv = createServer((req, res) => {
      let body = '';
      req
        .on('data', (c) => (body += c))
        .on('end', () => {
          received = { method: req.method, type: req.headers['content-type'], body, auth: req.headers.authorization };
          res.writeHead(req.url === '/fail' ? 503 : 201).end('{"id":"prov-77"}');
        });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const config = parseHttpProviderConfig(
        JSON.stringify({
          url: `${base}/send`,
          headers: { authorization: 'Bearer k' },
          body: '{"to":"+{to}","message":"{text}","ref":"{message_id}"}',
          message_id_regex: '"id":"([^"]+)"',
        }),
      );
      const provider = new HttpSmsProvider({ config });
      const r = await provider.send({ messageId: 'm.1', accountId: 'a', sharingId: 's', to: '905321234567', text: 'Çok "iyi"\nsatır' });
      expect(r).toEqual({ outcome: 'accepted', providerMessageId: 'prov-77' });
      expect(received.method).toBe('POST');
      expect(received.type).toBe('application/json');
      expect(received.auth).toBe('Bearer k');
      expect(JSON.parse(received.body)).toEqual({ to: '+905321234567', message: 'Çok "iyi"\nsatır', ref: 'm.1' });

      const failing = new HttpSmsProvider({ config: { ...config, url: `${base}/fail` } });
      expect(await failing.send({ messageId: 'm.2', accountId: 'a', sharingId: 's', to: '1', text: 't' })).toMatchObject({
        outcome: 'rejected',
        retriable: true,
      });
    } finally {
      srv.close();
    }
  });
});
