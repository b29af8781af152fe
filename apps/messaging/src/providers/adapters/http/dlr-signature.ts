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

/*
 * The inbound-SMS URL (an SMS gateway's mobile-originated callback, Kannel's sms-service get-url)
 * is one fixed URL, so it carries the HMAC of a fixed subject. The subject has a "/", which no
 * message id has: a delivery report's signature never opens it.
 */
const INBOUND_SUBJECT = 'sms/mo';

/** The signed URL the SMS gateway calls with each inbound SMS; the gateway adds the sender and text (Kannel: `&from=%p&text=%a`). */
export function inboundSmsUrl(baseUrl: string, secret: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sms/mo?sig=${signMessageId(secret, INBOUND_SUBJECT)}`;
}

export const verifyInboundSms = (secret: string, sig: string): boolean => verifyMessageId(secret, INBOUND_SUBJECT, sig);
