import { PUBLISHED_FORM, signatureValue, signedContent } from '../../src/contract/webhook-notification.ts';

/** The published scheme's x-webhook-signature: the hex HMAC-SHA256 of `timestamp + body` with `secret`. */
export function signDelivery(secret: string, timestamp: string, body: string): string {
  const scheme = PUBLISHED_FORM.signature!;
  return signatureValue(scheme, secret, signedContent(scheme, timestamp, body));
}
