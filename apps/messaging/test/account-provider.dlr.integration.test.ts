import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccountProviderConfig } from '../src/providers/adapters/http/account-provider.config.js';
import type { RunningDlrServer } from '../src/providers/adapters/http/dlr.server.js';
import { parseHttpProviderConfig } from '../src/providers/adapters/http/http-provider.config.js';
import { HttpSmsProvider } from '../src/providers/adapters/http/http-sms.provider.js';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { messageId } from '../src/shared/domain/sms-message.js';
import { sendOne } from './fakes/memory-deps.js';
import { dropTestDb, openTestDb, startKannelRuleDlrServer, waitFor } from './stack.js';

interface Received {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An SMS API on 127.0.0.1:0 that records what it is sent. */
async function receiver(): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ method: req.method!, url: new URL(req.url!, 'http://receiver'), headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"id":"r-1"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, server };
}

/**
 * An account's own provider end to end inside messaging: the sender in every template, the
 * record of its report rule in MongoDB, and the delivery-report listener reading a report by that
 * rule while the deployment's is Kannel's.
 */
describe('an account provider over HTTP, with its delivery reports', () => {
  let mongo: MongoHandle;
  let messages: MongoMessageRepository;
  let dlr: RunningDlrServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const secret = randomBytes(32).toString('base64url');
  const clock = { now: () => new Date() };

  beforeAll(async () => {
    mongo = await openTestDb();
    messages = new MongoMessageRepository(mongo.db);
    rx = await receiver();
    dlr = await startKannelRuleDlrServer(messages, secret);
  });
  afterAll(async () => {
    await dlr?.close();
    await new Promise((r) => rx?.server.close(r));
    await dropTestDb(mongo);
  });

  it('fills {sender} in query, headers and body, and a report in its own status field marks the message delivered', async () => {
    const config = parseAccountProviderConfig(
      JSON.stringify({
        url: `${rx.url}/v1/messages`,
        sender: 'ACME Ltd',
        query: { originator: '{sender}' },
        headers: { authorization: 'Bearer acme-key', 'x-sender': '{sender}' },
        body: '{"from":"{sender}","to":"{to}","text":"{text}","callback":"{dlr_url}"}',
        dlr: { status_param: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV', 'REJECTD'] },
      }),
    );
    const provider = new HttpSmsProvider({ config, name: 'account-http', dlrBaseUrl: dlr.url, dlrSecret: secret });
    const cmd = { accountId: 'acc-1', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905321112233', text: 'Merhaba "Ayşe"' };
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');

    expect(rx.got).toHaveLength(1);
    const [req] = rx.got;
    expect(req!.url.searchParams.get('originator')).toBe('ACME Ltd');
    expect([req!.headers.authorization, req!.headers['x-sender']]).toEqual(['Bearer acme-key', 'ACME Ltd']);
    const body = JSON.parse(req!.body) as Record<string, string>;
    expect(body).toMatchObject({ from: 'ACME Ltd', to: '905321112233', text: 'Merhaba "Ayşe"' });

    const id = messageId(cmd.sharingId, cmd.phone);
    expect(await messages.findById(id)).toMatchObject({
      provider: 'account-http',
      status: 'sent',
      deliveryRule: { statusParam: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV', 'REJECTD'] },
    });

    // The receiver reports as its API does: the deployment's "status" field means nothing here.
    const callback = new URL(body.callback!);
    expect(callback.pathname).toBe(`/sms/dlr/${id}`);
    expect((await fetch(`${callback.href}&status=1`)).status).toBe(400);
    expect((await messages.findById(id))?.status).toBe('sent');
    const forged = new URL(callback.href);
    forged.searchParams.set('sig', 'x'.repeat(32));
    expect((await fetch(`${forged.href}&state=DELIVRD`)).status).toBe(403);
    const res = await fetch(callback.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'DELIVRD' }),
    });
    expect([res.status, await res.text()]).toEqual([200, 'applied']);
    await waitFor('delivered', async () => (await messages.findById(id))?.status === 'delivered');
  });

  it("the deployment's provider leaves {sender} as written when it has none, and its reports read as before", async () => {
    const config = parseHttpProviderConfig(
      JSON.stringify({ url: `${rx.url}/send`, method: 'GET', query: { to: '{to}', text: '{text}', from: '{sender}', dlr: '{dlr_url}' } }),
    );
    const provider = new HttpSmsProvider({ config, dlrBaseUrl: dlr.url, dlrSecret: secret });
    const cmd = { accountId: 'acc-2', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905321112234', text: 'x' };
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');
    const req = rx.got.at(-1)!;
    expect(req.url.searchParams.get('from')).toBe('{sender}');
    expect((await messages.findById(messageId(cmd.sharingId, cmd.phone)))?.provider).toBe('http');
    const res = await fetch(`${req.url.searchParams.get('dlr')!}&status=2`);
    expect([res.status, await res.text()]).toEqual([200, 'applied']);
    // Kannel's rule names no error field: the report's status code alone; its event went out, nothing is owed.
    const id = messageId(cmd.sharingId, cmd.phone);
    expect(await messages.findById(id)).toMatchObject({ status: 'failed', deliveryError: { status: '2', code: null, description: null } });
    expect((await messages.unpublishedReports(new Date(), 100)).map((m) => m.id)).not.toContain(id);
  });

  it("a failing report keeps the error fields its provider's rule names, of an SMPP receipt only err: and stat:", async () => {
    const config = parseHttpProviderConfig(
      JSON.stringify({
        url: `${rx.url}/send`,
        method: 'GET',
        query: { to: '{to}', text: '{text}', dlr: '{dlr_url}' },
        dlr: { url_query: 'status=%d&answer=%A', status_param: 'status', delivered: ['1'], failed: ['2', '16'], error_param: 'answer' },
      }),
    );
    const provider = new HttpSmsProvider({ config, dlrBaseUrl: dlr.url, dlrSecret: secret });
    const cmd = { accountId: 'acc-3', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905321112235', text: 'x' };
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');
    // As Kannel fills the template in: %d and %A, the SMSC's receipt, URL-encoded.
    const receipt = 'id:42 sub:001 dlvrd:000 submit date:2611281000 done date:2611281001 stat:UNDELIV err:00B text:Merhaba Ayse';
    const callback = rx.got.at(-1)!.url.searchParams.get('dlr')!.replace('%d', '2').replace('%A', encodeURIComponent(receipt));
    const res = await fetch(callback);
    expect([res.status, await res.text()]).toEqual([200, 'applied']);
    const stored = await messages.findById(messageId(cmd.sharingId, cmd.phone));
    expect(stored?.deliveryError).toEqual({ status: '2', code: '00B', description: 'UNDELIV' });
    expect(JSON.stringify(stored)).not.toContain('Merhaba Ayse');
  });
});
