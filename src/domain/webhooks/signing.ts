import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt. `webhook-id` is the event id, the same on every retry
 * so receivers can drop duplicates; the timestamp is the attempt's, so retries stay inside the
 * receivers' replay tolerance (five minutes in the reference libraries).
 */
export function signedHeaders(secret: string, eventId: string, payload: string, at: Date): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, payload),
  };
}
