import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the secret's decoded bytes. */
export function signatureOf(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  if (!secret.startsWith(PREFIX)) throw new Error('not a whsec_ secret');
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The Standard Webhooks headers of one attempt, signed by every secret given (space-separated). */
export function webhookHeaders(secrets: readonly string[], webhookId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, webhookId, timestamp, body)).join(' '),
  };
}
