import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSecret, webhookHeaders } from '../src/domain/signature.js';

// Our signatures checked by the specification's own library, not by our code.
describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ type: 'survey.answered', timestamp: '2026-11-27T10:00:00.000Z', data: { response_id: 'r1' } });

  it('a secret is whsec_ + base64 of 24 random bytes', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newSecret()).not.toBe(secret);
  });

  it('verifies with standardwebhooks, and fails for another secret, body or id', () => {
    const secret = newSecret();
    const headers = webhookHeaders([secret], 'msg_1', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('r1', 'r2'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('signed with two secrets during a rotation, each verifies alone', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = webhookHeaders([current, previous], 'msg_9', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it('the timestamp is in seconds: an old one is refused by the receiver', () => {
    const secret = newSecret();
    const old = webhookHeaders([secret], 'msg_1', new Date(Date.now() - 3_600_000), body);
    expect(old['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/timestamp/i);
  });
});
