import { randomBytes, randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { normalizePhone } from '@feedback/kit-phone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDlrServer } from '../src/providers/adapters/http/dlr.server.js';
import { parseHttpProviderConfig } from '../src/providers/adapters/http/http-provider.config.js';
import { HttpSmsProvider } from '../src/providers/adapters/http/http-sms.provider.js';
import { MongoMessageRepository } from '../src/shared/adapters/mongo/message.repository.js';
import { RetriableSendError } from '../src/dispatch/domain/dispatch-results.js';
import { messageId } from '../src/shared/domain/sms-message.js';
import { readFakeSmscMessages } from './fakesmsc-log.js';
import { sendOne } from './fakes/memory-deps.js';
import { closedPort, dropTestDb, ensureKannel, type KannelSettings, openTestDb, startKannelRuleDlrServer, waitFor } from './stack.js';

/** End to end against a real SMS gateway: Kannel's sendsms → bearerbox → fakesmsc, DLRs back to us. */
describe('HTTP provider against Kannel', () => {
  let kannel: ReturnType<typeof ensureKannel>;
  let k: KannelSettings;
  let mongo: MongoHandle;
  let messages: MongoMessageRepository;
  let dlr: RunningDlrServer;
  const secret = randomBytes(32).toString('base64url');
  const clock = { now: () => new Date() };

  const kannelConfig = (overrides: Record<string, unknown> = {}) =>
    parseHttpProviderConfig(
      JSON.stringify({
        url: k.KANNEL_SENDSMS_URL,
        method: 'GET',
        query: {
          username: k.KANNEL_SENDSMS_USER,
          password: k.KANNEL_SENDSMS_PASSWORD,
          from: 'FEEDBACK',
          to: '{to}',
          text: '{text}',
          charset: 'UTF-8',
          coding: '2',
          'dlr-mask': '3',
          'dlr-url': '{dlr_url}',
        },
        success: { body_regex: '^(0|3): ' },
        // As infra/apps.sh configures Kannel: the SMSC's receipt (%A) rides along for a failing report's error.
        dlr: { url_query: 'status=%d&answer=%A', status_param: 'status', delivered: ['1'], failed: ['2', '16'], error_param: 'answer' },
        ...overrides,
      }),
    );

  beforeAll(async () => {
    kannel = ensureKannel();
    k = kannel.settings;
    mongo = await openTestDb();
    messages = new MongoMessageRepository(mongo.db);
    dlr = await startKannelRuleDlrServer(messages, secret);
  });
  afterAll(async () => {
    await dlr?.close();
    await dropTestDb(mongo);
    kannel?.stop();
  });

  it('delivers Turkish UTF-8 text to the right recipient once, and the delivery report marks it delivered', async () => {
    const provider = new HttpSmsProvider({ config: kannelConfig(), dlrBaseUrl: dlr.url, dlrSecret: secret });
    const token = randomBytes(4).toString('hex');
    const text = `Merhaba Çağrı Öztürk, görüşünüz önemli: İĞÜŞÖÇ ığüşöç ${token} https://s.example/AbC12`;
    const phone = normalizePhone('+90 532 123 45 67', 'TR');
    expect(phone).toEqual({ ok: true, phone: '905321234567' });
    const cmd = { accountId: 'acc-1', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905321234567', text };
    const deps = { messages, provider, clock };

    expect(await sendOne(deps, cmd)).toBe('sent');
    await waitFor('fakesmsc to log the message', () => readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).some((m) => m.text.includes(token)));
    const got = readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).filter((m) => m.text.includes(token));
    expect(got).toHaveLength(1);
    // 86 UCS-2 characters: more than one SMS, so Kannel sends two concatenated parts.
    expect(got[0]).toMatchObject({ from: 'FEEDBACK', to: '905321234567', type: 'udh', parts: 2, text });

    const id = messageId(cmd.sharingId, cmd.phone);
    await waitFor('the delivery report', async () => (await messages.findById(id))?.status === 'delivered');

    // Kafka redelivers the event: nothing reaches the provider again.
    expect(await sendOne(deps, cmd)).toBe('already_handled');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).filter((m) => m.text.includes(token))).toHaveLength(1);
    expect((await messages.findById(id))?.attempts).toBe(1);
  });

  it('a short text arrives as one UCS-2 SMS', async () => {
    const provider = new HttpSmsProvider({ config: kannelConfig(), dlrBaseUrl: dlr.url, dlrSecret: secret });
    const text = `Anket: ğüşıöç ${randomBytes(3).toString('hex')}`;
    const cmd = { accountId: 'acc-1', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905551112233', text };
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('sent');
    await waitFor('fakesmsc to log the message', () => readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).some((m) => m.text === text));
    expect(readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).find((m) => m.text === text)).toMatchObject({
      to: '905551112233',
      type: 'ucs-2',
      parts: 1,
    });
  });

  it('a forged delivery report is refused and changes nothing', async () => {
    const id = messageId(randomUUID(), '905321234568');
    await messages.claim({
      id,
      accountId: 'a',
      sharingId: 's',
      campaignId: 'c',
      phone: '905321234568',
      text: 't',
      provider: 'http',
      createdAt: new Date(),
    });
    const res = await fetch(`${dlr.url}/sms/dlr/${id}?sig=forged&status=2`);
    expect(res.status).toBe(403);
    expect((await messages.findById(id))?.status).toBe('sending');
  });

  it('a refusal by the gateway fails the message for good (wrong credentials)', async () => {
    const config = kannelConfig();
    config.query.password = 'wrong';
    const provider = new HttpSmsProvider({ config, dlrBaseUrl: dlr.url, dlrSecret: secret });
    const cmd = { accountId: 'acc-1', sharingId: randomUUID(), campaignId: randomUUID(), phone: '905321234569', text: 'x' };
    expect(await sendOne({ messages, provider, clock }, cmd)).toBe('failed');
    const msg = await messages.findById(messageId(cmd.sharingId, cmd.phone));
    expect(msg?.status).toBe('failed');
    expect(msg?.error).toMatch(/HTTP 403/);
  });

  it('an unreachable gateway is retried: the message is released, then sent by the next attempt', async () => {
    const down = kannelConfig({ url: `http://127.0.0.1:${await closedPort()}/cgi-bin/sendsms` });
    const cmd = {
      accountId: 'acc-1',
      sharingId: randomUUID(),
      campaignId: randomUUID(),
      phone: '905321234570',
      text: `retry ${randomBytes(4).toString('hex')}`,
    };
    await expect(sendOne({ messages, provider: new HttpSmsProvider({ config: down }), clock }, cmd)).rejects.toBeInstanceOf(
      RetriableSendError,
    );
    const id = messageId(cmd.sharingId, cmd.phone);
    expect((await messages.findById(id))?.status).toBe('retryable');

    const up = new HttpSmsProvider({ config: kannelConfig(), dlrBaseUrl: dlr.url, dlrSecret: secret });
    expect(await sendOne({ messages, provider: up, clock }, cmd)).toBe('sent');
    await waitFor('fakesmsc to log the retried message', () =>
      readFakeSmscMessages(k.KANNEL_FAKESMSC_LOG).some((m) => m.text === cmd.text),
    );
    expect((await messages.findById(id))?.attempts).toBe(2);
  });
});
