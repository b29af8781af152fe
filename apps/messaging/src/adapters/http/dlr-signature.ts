import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Delivery-report URLs carry an HMAC of the message id, so only the provider we gave the URL
 * to can report on that message; message ids alone (sharing id and phone) are guessable.
 */
function signMessageId(secret: string, messageId: string): string {
  return createHmac('sha256', secret).update(messageId).digest('base64url').slice(0, 32);
}

export function verifyMessageId(secret: string, messageId: string, sig: string): boolean {
  const expected = Buffer.from(signMessageId(secret, messageId));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Our callback URL for one message, plus the provider's own substitutions (Kannel: "status=%d"). */
export function dlrUrl(baseUrl: string, secret: string, messageId: string, extraQuery = ''): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/sms/dlr/${messageId}?sig=${signMessageId(secret, messageId)}`;
  return extraQuery ? `${url}&${extraQuery.replace(/^[?&]/, '')}` : url;
}
